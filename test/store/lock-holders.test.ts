// How another process is named in messages (a restore refused, a start waiting for the lock):
// its command line, with every secret it was given left out.
import { expect, test } from 'bun:test'
import { describeProcess } from '../../src/store/lock-holders'
import { commandLineOf } from '../process-waits'

test("a process's secrets are not shown: options named token or key, on their own or with =, and sk_ keys", async () => {
  const secrets = [
    'MetricsSecretToken-0123456789',
    'GeoSecret42',
    'AnotherSecret',
    `sk_${'a1B2c3D4e5'.repeat(4).slice(0, 38)}`,
  ]
  const proc = Bun.spawn(
    [
      process.execPath,
      '-e',
      'Bun.sleepSync(9e3)',
      '--',
      '--metrics-token',
      secrets[0]!,
      `--geocoder-api-key=${secrets[1]}`,
      '--secret',
      secrets[2]!,
      secrets[3]!,
    ],
    { stdout: 'ignore', stderr: 'ignore', argv0: 'bun' },
  )
  try {
    while (!commandLineOf(proc.pid).includes('Bun.sleepSync')) await Bun.sleep(5) // its exec: Bun.spawn returns before
    const text = describeProcess(proc.pid)
    expect(text).toStartWith(`process ${proc.pid} (`)
    // All within the 120 characters shown.
    expect(text).toEndWith(
      ' --metrics-token [redacted] --geocoder-api-key=[redacted] --secret [redacted] sk_[redacted])',
    )
    for (const secret of secrets) expect(text).not.toContain(secret)
  } finally {
    proc.kill()
    await proc.exited
  }
})
