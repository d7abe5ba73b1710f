/**
 * The webhook guard of the reference service (docs/service.md, "Where webhooks may go"): the relay
 * connects only to public addresses (or allow-listed networks), judged on the address it connects
 * to, literal or resolved; refused messages are dead at once with the reason.
 *
 * No packet leaves this machine: names are answered by a stubbed resolver, and every socket
 * connect of this process is watched — to anything but loopback it is recorded and destroyed
 * before it is made, so even a broken guard could not send a packet; the tests assert that no
 * such connect was even tried.
 */
import { createServer } from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { devWebhookSecret, guardSettings, loadConfig } from '../../docs/examples/service/config.js'
import { silentLogger } from '../../docs/examples/service/log.js'
import { addressRefusal, guardOf, parseNetwork, shownUrl, urlRefusal } from '../../docs/examples/service/outbox/guard.js'
import { Relay } from '../../docs/examples/service/outbox/relay.js'
import { post, type Resolve } from '../../docs/examples/service/outbox/send.js'
import { paysplitRules } from '../../docs/examples/service/paysplit.js'
import { cardRequest } from '../support/http.fixtures.js'
import { call, eventually, outboxSettled, Receiver, startService, testDb, testEnv, type TestDb } from '../support/reference-service.fixtures.js'

// -------------------------------------------------------------------------------------
// the connect watch
// -------------------------------------------------------------------------------------

/** Hosts a socket of this process may connect to: loopback, and the name the stub maps to 127.0.0.1. */
const safe = new Set(['127.0.0.1', '::1', 'localhost', 'receiver.example'])
/** Connects attempted to anything else (each destroyed before it was made). */
const blocked: Array<string> = []
// eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, called with its socket
const original = net.Socket.prototype.connect

beforeAll(() => {
  net.Socket.prototype.connect = function watched(this: net.Socket, ...args: Array<unknown>): net.Socket {
    // net.connect passes its normalised arguments as one array; a direct call passes them as given
    const first = Array.isArray(args[0]) ? (args[0] as Array<unknown>)[0] : args[0]
    const options = typeof first === 'object' && first !== null ? (first as { host?: unknown; path?: unknown }) : { host: typeof args[1] === 'string' ? args[1] : undefined }
    const host = typeof options.host === 'string' ? options.host : 'localhost'
    if (options.path !== undefined || safe.has(host)) return (original as (...a: Array<unknown>) => net.Socket).apply(this, args)
    blocked.push(host)
    process.nextTick(() => this.destroy(new Error(`test: connect to ${host} blocked`)))
    return this
  }
})

afterAll(() => {
  net.Socket.prototype.connect = original
})

afterEach(() => {
  expect(blocked).toStrictEqual([])
})

/** A resolver stub: names to addresses; counts its calls. */
const stub = (table: Readonly<Record<string, ReadonlyArray<string>>>) => {
  const calls: Array<string> = []
  const resolve: Resolve = (hostname) => {
    calls.push(hostname)
    const answer = table[hostname]
    if (answer === undefined) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }))
    return Promise.resolve(answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
  }
  return { resolve, calls }
}

const production = guardOf({ allowHttp: false, allowNetworks: [] })
const loopbackAllowed = guardOf({ allowHttp: false, allowNetworks: ['127.0.0.0/8', '::1'] })
const sendOptions = { timeoutMs: 2000, maxResponseBytes: 1024 }

// -------------------------------------------------------------------------------------

describe('addresses', () => {
  const refused: ReadonlyArray<readonly [string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.10.10', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::1', '6to4'],
    ['2001:db8::1', 'reserved']
  ]
  it.each(refused)('%s is refused (%s)', (address, range) => {
    expect(addressRefusal(address, [])).toMatch(new RegExp(`not public \\(${range}\\)$`))
  })

  it.each(['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200', '192.0.0.192', '168.63.129.16', '::ffff:169.254.169.254'])(
    'the metadata address %s is refused, even when an allow-list covers everything',
    (address) => {
      expect(addressRefusal(address, [])).toMatch(/cloud metadata address$/)
      expect(addressRefusal(address, [parseNetwork('0.0.0.0/0'), parseNetwork('::/0')])).toMatch(/cloud metadata address$/)
    }
  )

  it('public unicast passes; an allow-listed network passes, its neighbours do not', () => {
    expect(addressRefusal('93.184.216.34', [])).toBeUndefined()
    expect(addressRefusal('2606:4700::1111', [])).toBeUndefined()
    const allow = [parseNetwork('10.1.0.0/16'), parseNetwork('::1')]
    expect(addressRefusal('10.1.2.3', allow)).toBeUndefined()
    expect(addressRefusal('::ffff:10.1.2.3', allow)).toBeUndefined()
    expect(addressRefusal('::1', allow)).toBeUndefined()
    expect(addressRefusal('10.2.0.1', allow)).toMatch(/private/)
    expect(addressRefusal('127.0.0.1', allow)).toMatch(/loopback/)
  })

  it('urls: only http(s), no credentials, plain http only in development or to an allow-listed network, literals judged as written', () => {
    const dev = guardOf({ allowHttp: true, allowNetworks: [] })
    expect(urlRefusal(new URL('ftp://93.184.216.34/x'), dev)).toBe('scheme ftp: is not http(s)')
    expect(urlRefusal(new URL('https://u:p@hooks.example/x'), dev)).toBe('credentials in the url are not sent')
    expect(urlRefusal(new URL('http://93.184.216.34/x'), production)).toMatch(/plain http/)
    expect(urlRefusal(new URL('http://93.184.216.34/x'), dev)).toBeUndefined()
    expect(urlRefusal(new URL('http://127.0.0.1:9/x'), loopbackAllowed)).toBeUndefined()
    // other spellings of loopback, as the URL parser reads them
    for (const u of ['http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:7f00:1]/', 'http://[::1]/', 'http://127.1/']) {
      expect(urlRefusal(new URL(u), production)).toMatch(/loopback/)
    }
    expect(urlRefusal(new URL('https://hooks.example/x'), production)).toBeUndefined() // a name: judged when resolved
    // a name over plain http: refused unresolved when no allow-list could let it through, else judged when resolved
    expect(urlRefusal(new URL('http://hooks.example/x'), production)).toMatch(/plain http/)
    expect(urlRefusal(new URL('http://hooks.example/x'), loopbackAllowed)).toBeUndefined()
  })

  it('the url as shown: no query string, no credentials', () => {
    expect(shownUrl('https://u:secret@hooks.example/a/b?token=s3cr3t')).toBe('https://hooks.example/a/b?…')
    expect(shownUrl('not a url')).toBe('(not a url)')
  })
})

describe('post: nothing dialled before it is judged', () => {
  it('literal private and metadata addresses are refused before any resolution or connect', async () => {
    const { resolve, calls } = stub({})
    for (const url of ['https://10.0.0.1/hook', 'https://169.254.169.254/latest/meta-data/', 'https://[fd00:ec2::254]/', 'https://[::ffff:a00:1]/', 'https://100.64.1.1/', 'http://2130706433/']) {
      const result = await post(url, {}, '{}', { ...sendOptions, guard: production, resolve })
      expect(result).toHaveProperty('refused')
    }
    expect(calls).toStrictEqual([])
  })

  it('names resolving to private, metadata, loopback or mapped addresses are refused, and no socket is opened', async () => {
    const { resolve, calls } = stub({
      'internal.example': ['10.1.2.3'],
      'metadata.example': ['169.254.169.254'],
      'mixed.example': ['93.184.216.34', '192.168.0.10'],
      'mapped.example': ['::ffff:127.0.0.1'],
      'v6.example': ['fd00:ec2::254'],
      'receiver.example': ['127.0.0.1']
    })
    const outcomes = await Promise.all(
      ['internal', 'metadata', 'mixed', 'mapped', 'v6', 'receiver'].map((n) => post(`https://${n}.example/hook`, {}, '{}', { ...sendOptions, guard: production, resolve }))
    )
    expect(outcomes).toStrictEqual([
      { refused: 'internal.example → address 10.1.2.3 is not public (private)' },
      { refused: 'metadata.example → address 169.254.169.254 is a cloud metadata address' },
      { refused: 'mixed.example → address 192.168.0.10 is not public (private)' },
      { refused: 'mapped.example → address 127.0.0.1 is not public (loopback)' },
      { refused: 'v6.example → address fd00:ec2::254 is a cloud metadata address' },
      { refused: 'receiver.example → address 127.0.0.1 is not public (loopback)' }
    ])
    expect(calls).toHaveLength(6)
    const unknown = await post('https://nowhere.example/', {}, '{}', { ...sendOptions, guard: production, resolve })
    expect(unknown).toStrictEqual({ error: 'cannot resolve nowhere.example: ENOTFOUND' })
  })

  it('an allow-listed name reaches the loopback receiver at the address checked, resolved once (no second lookup to rebind)', async () => {
    const receiver = new Receiver()
    const base = new URL(await receiver.start())
    try {
      let n = 0
      // a rebinding resolver: loopback first, a private address on any later call
      const resolve: Resolve = () => Promise.resolve([{ address: (n += 1) === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }])
      const body = JSON.stringify({ payload: { payment: { paymentCreated: { paymentReferenceID: 'x' } } } })
      const result = await post(`http://receiver.example:${base.port}/named`, {}, body, { ...sendOptions, guard: loopbackAllowed, resolve })
      expect(result).toStrictEqual({ status: 204 })
      expect(n).toBe(1)
      expect(receiver.received.map((r) => [r.path, r.headers.host])).toStrictEqual([['/named', `receiver.example:${base.port}`]])
    } finally {
      await receiver.stop()
    }
  })
})

describe('in the service', () => {
  let database: TestDb
  let receiver: Receiver
  let hooks = ''
  beforeAll(async () => {
    receiver = new Receiver()
    hooks = await receiver.start()
    database = await testDb()
  })
  afterAll(async () => {
    await database.close()
    await receiver.stop()
  })

  const deadRows = async (id: string) =>
    (
      await database.db.query<{ url: string; status: string; attempts: number; dead_reason: string | null; last_error: string | null }>(
        'SELECT url, status, attempts, dead_reason, last_error FROM outbox WHERE payment_reference_id = $1 ORDER BY id',
        [id]
      )
    ).rows

  it('a create with private and metadata subscription urls is accepted; those messages are dead at once with the reason, the loopback receiver gets its own', async () => {
    const { service, base } = await startService(database.db)
    try {
      const subscriptions = ['http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'https://[fd00:ec2::254]/', `${hooks}/fine`].map((url) => ({
        eventType: 'Initiated',
        url
      }))
      const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'ssrf-1', webhookSubscriptions: subscriptions }))
      expect(r.status).toBe(201)
      const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
      await eventually(() => outboxSettled(database.db))
      expect(await deadRows(id)).toStrictEqual([
        { url: 'http://10.0.0.1/hook', status: 'dead', attempts: 1, dead_reason: 'refused', last_error: 'refused: address 10.0.0.1 is not public (private)' },
        { url: 'http://169.254.169.254/latest/meta-data/', status: 'dead', attempts: 1, dead_reason: 'refused', last_error: 'refused: address 169.254.169.254 is a cloud metadata address' },
        { url: 'https://[fd00:ec2::254]/', status: 'dead', attempts: 1, dead_reason: 'refused', last_error: 'refused: address fd00:ec2::254 is a cloud metadata address' },
        { url: `${hooks}/fine`, status: 'delivered', attempts: 1, dead_reason: null, last_error: null }
      ])
      expect(receiver.for('/fine', id)).toHaveLength(1)
    } finally {
      await service.close()
    }
  })

  it('outside the allow-list loopback is refused too; a name is judged on what it resolves to (the relay with a stubbed resolver)', async () => {
    // a writer without a relay, then a relay whose allow-list is empty and whose resolver is a stub
    const writer = await startService(database.db, { RELAY: 'off' })
    let id = ''
    try {
      const subscriptions = [`${hooks}/loop`, 'https://internal.example/hook', 'https://metadata.example/x'].map((url) => ({ eventType: 'Initiated', url }))
      const r = await call(writer.base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'ssrf-2', webhookSubscriptions: subscriptions }))
      id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
    } finally {
      await writer.service.close()
    }
    // the production policy: https only, no allow-list (as guardSettings gives it outside development)
    const targets = guardSettings({ WEBHOOK_ALLOW_NETWORKS: '', FORM_SECRET: 'f'.repeat(40) }, false, undefined).relay.targets
    expect(targets).toStrictEqual({ allowHttp: false, allowNetworks: [] })
    const config = loadConfig(testEnv())
    const { resolve, calls } = stub({ 'internal.example': ['10.9.8.7'], 'metadata.example': ['::ffff:169.254.169.254'] })
    const relay = new Relay(database.db, { ...config.relay, targets }, [devWebhookSecret], silentLogger, paysplitRules.webhookMessage, { resolve })
    relay.start()
    try {
      await eventually(() => outboxSettled(database.db))
    } finally {
      await relay.stop()
    }
    expect((await deadRows(id)).map((r) => [r.dead_reason, r.last_error])).toStrictEqual([
      ['refused', 'refused: address 127.0.0.1 is not public (loopback)'],
      ['refused', 'refused: internal.example → address 10.9.8.7 is not public (private)'],
      ['refused', 'refused: metadata.example → address 169.254.169.254 is a cloud metadata address']
    ])
    expect(calls.sort()).toStrictEqual(['internal.example', 'metadata.example'])
    expect(receiver.for('/loop', id)).toHaveLength(0)
  })

  it('a redirect is not followed: the 302 is an answer that is not 2xx, its Location never asked', async () => {
    let redirects = 0
    const redirector = createServer((req, res) => {
      req.resume()
      redirects++
      res.writeHead(302, { location: `${hooks}/redirected` }).end()
    })
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
    const { service, base } = await startService(database.db, { WEBHOOK_MAX_ATTEMPTS: '2' })
    try {
      const url = `http://127.0.0.1:${String((redirector.address() as AddressInfo).port)}/hook`
      const r = await call(base, 'POST', '/payments', cardRequest({ externalPaymentReferenceID: 'ssrf-3', webhookSubscriptions: [{ eventType: 'Initiated', url }] }))
      const id = r.body.paymentIntent.paymentCreated.paymentReferenceID as string
      await eventually(() => outboxSettled(database.db))
      expect(await deadRows(id)).toStrictEqual([{ url, status: 'dead', attempts: 2, dead_reason: 'attempts', last_error: 'HTTP 302 (redirects are not followed)' }])
      expect(redirects).toBe(2)
      expect(receiver.for('/redirected', id)).toHaveLength(0)
    } finally {
      await service.close()
      await new Promise<void>((resolve) => redirector.close(() => {
        resolve()
      }))
    }
  })

  it('the configuration refuses a catch-all url the guard would refuse, and an allow-list entry that is not a network', () => {
    expect(() => loadConfig(testEnv({ CATCH_ALL_URL: 'http://169.254.169.254/' }))).toThrow('CATCH_ALL_URL is refused: address 169.254.169.254 is a cloud metadata address.')
    expect(() => loadConfig(testEnv({ CATCH_ALL_URL: 'http://10.0.0.1/' }))).toThrow(/private/)
    expect(() => loadConfig(testEnv({ WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/8,intranet' }))).toThrow('WEBHOOK_ALLOW_NETWORKS: "intranet" is not an IP address or a CIDR range.')
    expect(loadConfig(testEnv({ CATCH_ALL_URL: 'http://10.0.0.1/', WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/8' })).catchAllUrl).toBe('http://10.0.0.1/')
  })
})
