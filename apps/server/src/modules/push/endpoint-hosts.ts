/**
 * Which push services a subscription's endpoint may point at (PUSH_ENDPOINT_HOSTS,
 * docs/product.md#notifications). The server sends a request to every endpoint it keeps, so an
 * endpoint a person could choose freely would let them aim it at any address the server reaches
 * (server-side request forgery): only these hosts are accepted, and checked again before each send.
 */
type Rule = { protocol: 'https:' | 'http:'; host: string; subdomains: boolean };

/**
 * `fcm.googleapis.com` (HTTPS, that host), `*.notify.windows.com` (HTTPS, its subdomains), or
 * `http://127.0.0.1:4567` (a scheme and port given: exactly that; plain HTTP only when written so).
 */
export function parseEndpointHosts(entries: string[]): Rule[] {
  return entries.map((entry) => {
    const scheme = /^(https?):\/\//i.exec(entry);
    const rest = scheme ? entry.slice(scheme[0].length).replace(/\/+$/, '') : entry;
    const subdomains = rest.startsWith('*.');
    return {
      protocol: scheme?.[1].toLowerCase() === 'http' ? 'http:' : 'https:',
      host: (subdomains ? rest.slice(2) : rest).toLowerCase(),
      subdomains,
    };
  });
}

/** The endpoint as a URL when it is on an allowed host; undefined otherwise (or when it is no URL). */
export function allowedEndpoint(endpoint: string, rules: Rule[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  // credentials in the URL would be sent along; no push service's endpoint has them
  if (url.username || url.password) return undefined;
  const host = url.host.toLowerCase();
  const ok = rules.some(
    (r) => r.protocol === url.protocol && (r.subdomains ? host.endsWith(`.${r.host}`) && !host.includes(':') : host === r.host),
  );
  return ok ? url : undefined;
}
