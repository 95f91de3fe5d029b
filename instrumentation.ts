// Runs once when the server starts, before it takes requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { guardServer } = await import('./lib/http/server-guard');
    guardServer();
  }
}
