/** The Host-header allowlist (DNS-rebinding guard) and the CORS origin policy, as pure functions. */
import { expect } from 'chai';
import { DEFAULT_CORS_ORIGINS, createCorsPolicy } from '../../src/server/cors.js';
import { DEFAULT_ALLOWED_HOSTS, createHostCheck, hostnameOf } from '../../src/server/hostCheck.js';

describe('server/hostCheck', () => {
  it('reads the host name out of a Host header', () => {
    expect(hostnameOf('LocalHost:8545')).to.equal('localhost');
    expect(hostnameOf('example.com')).to.equal('example.com');
    expect(hostnameOf('[::1]:8545')).to.equal('[::1]');
    expect(hostnameOf('[::1]')).to.equal('[::1]');
    expect(hostnameOf('::1')).to.equal('::1');
  });

  it('by default answers localhost and addresses, and refuses other names', () => {
    const check = createHostCheck(DEFAULT_ALLOWED_HOSTS, '127.0.0.1');
    for (const host of ['localhost', 'localhost:8545', 'LOCALHOST:1', '127.0.0.1:8545', '[::1]:8545', '192.168.1.20:8545', '[fe80::1]:1', undefined, '']) {
      expect(check(host), String(host)).to.equal(true);
    }
    for (const host of ['evil.example', 'evil.example:8545', 'localhost.evil.example', 'attacker.localhost.example:80', '127.0.0.1.nip.io:8545']) {
      expect(check(host), host).to.equal(false);
    }
  });

  it('adds the bound host when it is a name, not when it is a wildcard', () => {
    expect(createHostCheck(['localhost'], 'devbox.lan')('devbox.lan:8545')).to.equal(true);
    expect(createHostCheck(['localhost'], '0.0.0.0')('devbox.lan:8545')).to.equal(false);
    expect(createHostCheck(['localhost'], '::')('devbox.lan:8545')).to.equal(false);
  });

  it('takes a configured list instead of the default, and * for any host', () => {
    const check = createHostCheck(['app.test', 'OTHER.test'], '127.0.0.1');
    expect(check('app.test:8545')).to.equal(true);
    expect(check('other.test')).to.equal(true);
    expect(check('localhost:8545')).to.equal(false);
    expect(createHostCheck(['*'], '127.0.0.1')('anything.example:1')).to.equal(true);
  });
});

describe('server/cors', () => {
  const preflight = (origin: string | undefined, extra: Record<string, string> = {}) => createCorsPolicy(DEFAULT_CORS_ORIGINS)({ origin, ...extra }, true);

  it('by default echoes loopback origins on any port, with Vary: Origin', () => {
    for (const origin of ['http://localhost:3000', 'http://localhost', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const headers = createCorsPolicy(DEFAULT_CORS_ORIGINS)({ origin }, false);
      expect(headers['access-control-allow-origin'], origin).to.equal(origin);
      expect(headers.vary).to.equal('origin');
      expect(headers['access-control-allow-methods']).to.equal(undefined);
    }
  });

  it('by default gives other origins no CORS header', () => {
    for (const origin of [
      'https://app.example',
      'http://localhost.evil.example:3000',
      'http://localhost:3000.evil.example',
      'null',
      'https://localhost:3000',
      undefined,
    ]) {
      const headers = preflight(origin);
      expect(headers['access-control-allow-origin'], String(origin)).to.equal(undefined);
      expect(headers['access-control-allow-methods']).to.equal(undefined);
    }
  });

  it('answers a preflight from an allowed origin with methods, headers, max age and private-network consent', () => {
    const headers = preflight('http://localhost:3000', { 'access-control-request-private-network': 'true' });
    expect(headers['access-control-allow-origin']).to.equal('http://localhost:3000');
    expect(headers['access-control-allow-methods']).to.contain('POST');
    expect(String(headers['access-control-allow-headers'])).to.contain('content-type');
    expect(headers['access-control-allow-private-network']).to.equal('true');
  });

  it('takes configured origins instead of the default, and * for any', () => {
    const policy = createCorsPolicy(['https://app.example', 'http://dev.test:*']);
    expect(policy({ origin: 'https://app.example' }, false)['access-control-allow-origin']).to.equal('https://app.example');
    expect(policy({ origin: 'http://dev.test:9000' }, false)['access-control-allow-origin']).to.equal('http://dev.test:9000');
    expect(policy({ origin: 'http://localhost:3000' }, false)['access-control-allow-origin']).to.equal(undefined);
    const any = createCorsPolicy(['*']);
    expect(any({ origin: 'https://anything.example' }, false)['access-control-allow-origin']).to.equal('*');
    expect(any({}, false)['access-control-allow-origin']).to.equal('*');
    expect(any({}, false).vary).to.equal(undefined);
  });
});
