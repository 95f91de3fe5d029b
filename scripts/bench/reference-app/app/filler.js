// A JSON body of exactly `bytes` bytes, the size of the answer a scenario is set against.
const bodies = new Map();

export function filler(searchParams) {
  const asked = Number(searchParams.get('bytes') ?? 5120);
  const bytes = Number.isInteger(asked) ? Math.min(Math.max(asked, 16), 1 << 20) : 5120;
  let body = bodies.get(bytes);
  if (body === undefined) {
    body = `{"data":"${'x'.repeat(bytes - 11)}"}`;
    bodies.set(bytes, body);
  }
  return body;
}

export const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };
