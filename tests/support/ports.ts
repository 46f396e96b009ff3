import net from 'node:net';

/**
 * A loopback port nothing listens on right now, for a child process or proxy that must be told
 * its port before it starts (port 0 would leave the test unable to say where to connect).
 */
export async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
