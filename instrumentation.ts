// Runs once when the server starts, before it answers any request Next hands to our code.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { installPeerHeader } = await import('./lib/peer-header-node');
    installPeerHeader();
  }
}
