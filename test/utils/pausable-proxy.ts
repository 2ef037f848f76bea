import { createServer, Server, Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy to a local port that can stop passing bytes (both ways) and start again: a process behind it
 * sees its connections to, say, Redis hang as on a stalled network, with its commands waiting on the wire;
 * on `resume` they reach the server at once, in order.
 */
export class PausableProxy {
  private paused = false;
  private readonly flows = new Set<{ resume: () => void; close: () => void }>();

  private constructor(private readonly server: Server) {}

  static async start(targetPort: number): Promise<PausableProxy> {
    const server = createServer();
    const proxy = new PausableProxy(server);
    server.on('connection', (client) => proxy.link(client, tcpConnect(targetPort, '127.0.0.1')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.flows.forEach((f) => f.resume());
  }

  async close(): Promise<void> {
    this.flows.forEach((f) => f.close());
    await new Promise((resolve) => this.server.close(resolve));
  }

  private link(client: Socket, upstream: Socket): void {
    const waiting: [Socket, Buffer][] = [];
    const pass = (to: Socket) => (data: Buffer) => (this.paused ? waiting.push([to, data]) : to.write(data));
    client.on('data', pass(upstream));
    upstream.on('data', pass(client));
    const flow = {
      resume: () => waiting.splice(0).forEach(([to, data]) => to.write(data)),
      close: () => {
        client.destroy();
        upstream.destroy();
      },
    };
    this.flows.add(flow);
    for (const s of [client, upstream]) {
      s.on('error', () => undefined);
      s.on('close', () => {
        flow.close();
        this.flows.delete(flow);
      });
    }
  }
}
