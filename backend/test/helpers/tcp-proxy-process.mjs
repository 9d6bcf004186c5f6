// The TCP proxy of tcp-proxy.ts in a process of its own (`TcpProxyProcess.start`), for tests whose own event loop
// is busy (a load generator): a proxy sharing that loop would stall the traffic it relays and fault the app for
// reasons of the test's making. Driven over IPC: `cut`, `restore`; it answers each with `done`.
//   node tcp-proxy-process.mjs <target host> <target port> <listen port>
import * as net from 'node:net';

const [host, targetPort, listenPort] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const sockets = new Set();
let server;

function listen() {
  return new Promise((resolve, reject) => {
    server = net.createServer((client) => {
      const upstream = net.connect(targetPort, host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', resolve);
  });
}

async function cut() {
  const closing = server;
  server = undefined;
  for (const s of sockets) s.resetAndDestroy();
  sockets.clear();
  if (closing) await new Promise((resolve) => closing.close(resolve));
}

process.on('message', async (command) => {
  try {
    if (command === 'cut') await cut();
    if (command === 'restore' && !server) await listen();
    process.send({ done: command });
  } catch (error) {
    process.send({ error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
listen().then(
  () => process.send({ done: 'listen' }),
  (error) => process.send({ error: String(error) }),
);
