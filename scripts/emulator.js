// Runs one AWS emulator installed from npm (dynalite or kinesalite) on
// 127.0.0.1 and prints its port as the first line of standard output.
//
//   node scripts/emulator.js <node_modules dir> <dynalite|kinesalite> [port] [--stdin]
//
// Port 0 (the default) lets the system choose a free port. With --stdin the
// emulator exits when its standard input closes, so it cannot outlive the
// process that started it (the Go test helper uses this).
'use strict'
const path = require('path')
const [modules, name, port = '0', ...flags] = process.argv.slice(2)
const options = {
  dynalite: { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 },
  kinesalite: { createStreamMs: 0, deleteStreamMs: 0, updateStreamMs: 0, shardLimit: 100 },
}[name]
if (!modules || !options) {
  console.error('usage: node emulator.js <node_modules dir> <dynalite|kinesalite> [port] [--stdin]')
  process.exit(2)
}
const server = require(path.join(path.resolve(modules), name))(options)
server.listen(Number(port), '127.0.0.1', () => {
  console.log(String(server.address().port))
})
server.on('error', (err) => {
  console.error(`${name}: ${err.message}`)
  process.exit(1)
})
if (flags.includes('--stdin')) {
  process.stdin.on('data', () => {})
  process.stdin.on('end', () => process.exit(0))
  process.stdin.on('error', () => process.exit(0))
}
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0))
