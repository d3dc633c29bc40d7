// Runs one AWS emulator installed from npm (dynalite, kinesalite or fauxqs) on
// 127.0.0.1 and prints its port as the first line of standard output.
//
//   node scripts/emulator.js <node_modules dir> <dynalite|kinesalite|fauxqs> [port] [--stdin]
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
  fauxqs: {},
}[name]
if (!modules || !options) {
  console.error('usage: node emulator.js <node_modules dir> <dynalite|kinesalite|fauxqs> [port] [--stdin]')
  process.exit(2)
}
if (name === 'fauxqs') {
  // fauxqs (SQS, SNS and S3) always listens on 0.0.0.0: bind it to
  // 127.0.0.1 by rewriting the host its listen call asks for.
  const net = require('net')
  const listen = net.Server.prototype.listen
  net.Server.prototype.listen = function (...args) {
    if (args[0] && typeof args[0] === 'object' && (args[0].host === '0.0.0.0' || args[0].host === undefined)) {
      args[0] = { ...args[0], host: '127.0.0.1' }
    }
    return listen.apply(this, args)
  }
  import(path.join(path.resolve(modules), 'fauxqs', 'dist', 'app.js'))
    .then(({ startFauxqs }) => startFauxqs({ port: Number(port), logger: false }))
    .then((server) => console.log(String(server.port)))
    .catch((err) => {
      console.error(`fauxqs: ${err.message}`)
      process.exit(1)
    })
} else {
  const server = require(path.join(path.resolve(modules), name))(options)
  server.listen(Number(port), '127.0.0.1', () => {
    console.log(String(server.address().port))
  })
  server.on('error', (err) => {
    console.error(`${name}: ${err.message}`)
    process.exit(1)
  })
}
if (flags.includes('--stdin')) {
  process.stdin.on('data', () => {})
  process.stdin.on('end', () => process.exit(0))
  process.stdin.on('error', () => process.exit(0))
}
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0))
