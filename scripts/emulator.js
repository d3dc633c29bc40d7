// Runs one AWS emulator installed from npm (dynalite, kinesalite, fauxqs or
// s3rver) on 127.0.0.1 and prints its port as the first line of standard output.
//
//   node scripts/emulator.js <node_modules dir> <dynalite|kinesalite|fauxqs|s3rver> [port] [--stdin]
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
  s3rver: {},
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
} else if (name === 's3rver') {
  // s3rver (S3, path-style) takes its address; it keeps objects in files, here
  // in a temporary folder removed on exit. It accepts only access keys it
  // knows (it does not check SigV4 signatures): the key the tests and
  // benchmarks sign with (AKIDEXAMPLE) joins its built-in S3RVER key.
  const fs = require('fs')
  const os = require('os')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smithycurl-s3rver-'))
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
  const S3rver = require(path.join(path.resolve(modules), 's3rver'))
  const account = require(path.join(path.resolve(modules), 's3rver', 'lib', 'models', 'account'))
  account.DUMMY_ACCOUNT.createKeyPair('AKIDEXAMPLE', 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY')
  new S3rver({ address: '127.0.0.1', port: Number(port), silent: true, directory: dir, vhostBuckets: false })
    .run()
    .then(({ port }) => console.log(String(port)))
    .catch((err) => {
      console.error(`s3rver: ${err.message}`)
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
