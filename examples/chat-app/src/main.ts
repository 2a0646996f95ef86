import { startChatServer } from './chat-server.ts';

// `PORT=8080 pnpm start`; 3000 otherwise. The server binds 127.0.0.1 only: this example has no sign-in.
const port = Number(process.env.PORT ?? 3000);
const server = await startChatServer({ port });
console.log(`Patchbay chat on ${server.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(() => process.exit(0));
  });
}
