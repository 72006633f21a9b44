/**
 * Idle Socket.IO clients as raw WebSockets (engine.io v4 protocol by hand: far lighter than
 * socket.io-client), spread over source addresses 127.0.0.2… so no address runs out of ports.
 * argv: port count firstAddress token. Prints {"connected":n,"failed":m} when done, then keeps
 * the sockets open (answering pings) until stdin closes.
 */
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const [portArg, countArg, firstAddressArg, token = ''] = process.argv.slice(2);
const port = Number(portArg);
const count = Number(countArg);
const firstAddress = Number(firstAddressArg);
const PER_ADDRESS = 20_000;

let connected = 0;
let failed = 0;
const sockets: WebSocket[] = [];

function open(index: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`, {
      localAddress: `127.0.0.${firstAddress + Math.floor(index / PER_ADDRESS)}`,
      perMessageDeflate: false,
    });
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      if (ok) connected += 1;
      else failed += 1;
      resolve();
    };
    socket.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('0')) socket.send(`40${JSON.stringify(token ? { token } : {})}`);
      else if (text.startsWith('40')) finish(true);
      else if (text.startsWith('44')) finish(false);
      else if (text === '2') socket.send('3');
    });
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
    sockets.push(socket);
  });
}

for (let start = 0; start < count; start += 200) {
  await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, k) => open(start + k)));
}
console.log(JSON.stringify({ connected, failed }));
createInterface({ input: process.stdin }).on('close', () => {
  for (const socket of sockets) socket.terminate();
  process.exit(0);
});
