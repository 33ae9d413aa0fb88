import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const trusted = (value?: string) => loadConfig({ TRUST_PROXY: value } as NodeJS.ProcessEnv).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told which', () => {
    expect(trusted()).toBe(false);
    expect(trusted('')).toBe(false);
  });

  it('takes addresses, CIDRs and named private ranges', () => {
    expect(trusted('10.0.0.0/8, 192.0.2.7,::1/128')).toEqual(['10.0.0.0/8', '192.0.2.7', '::1/128']);
    expect(trusted('uniquelocal,loopback')).toEqual(['uniquelocal', 'loopback']);
  });

  it('refuses a hop count and anything that is not an address', () => {
    for (const value of ['1', 'true', '*', '10.0.0.0/33', 'proxy.example']) {
      expect(() => trusted(value), value).toThrow(/TRUST_PROXY: name proxies by address/);
    }
  });
});
