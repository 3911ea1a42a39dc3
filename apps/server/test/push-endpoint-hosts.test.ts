import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_HOSTS } from '../src/config';
import { allowedEndpoint, parseEndpointHosts } from '../src/modules/push/endpoint-hosts';

// PUSH_ENDPOINT_HOSTS (docs/decisions/049-web-push.md): the browsers' push services, and nothing a person could aim elsewhere
describe('the default push hosts', () => {
  const rules = parseEndpointHosts(DEFAULT_PUSH_HOSTS);
  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
    'https://web.push.apple.com/QGuQyavXuta',
  ])('accept %s', (endpoint) => expect(allowedEndpoint(endpoint, rules)?.href).toBe(new URL(endpoint).href));

  it.each([
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://fcm.googleapis.com.evil.example/x',
    'https://evilfcm.googleapis.com/x',
    'https://notify.windows.com/x',
    'https://evil.example/.notify.windows.com',
    'https://user:pass@fcm.googleapis.com/x',
    'https://127.0.0.1/x',
    'file:///etc/passwd',
    'not a url',
  ])('refuse %s', (endpoint) => expect(allowedEndpoint(endpoint, rules)).toBeUndefined());
});

describe('a list naming a scheme and port', () => {
  const rules = parseEndpointHosts(['http://127.0.0.1:4567']);
  it('allows that origin only', () => {
    expect(allowedEndpoint('http://127.0.0.1:4567/push/1', rules)).toBeDefined();
    expect(allowedEndpoint('https://127.0.0.1:4567/push/1', rules)).toBeUndefined();
    expect(allowedEndpoint('http://127.0.0.1:4568/push/1', rules)).toBeUndefined();
    expect(allowedEndpoint('http://127.0.0.1/push/1', rules)).toBeUndefined();
  });
});
