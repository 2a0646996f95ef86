// The turn runners of `runners:` scenarios: the same user turn as runTurn runs it, through another
// loop. `stream-turn` is runTurn's streaming sibling; the framework runners (ai-sdk, openai-agents,
// langchain) run the framework's own loop with its Patchbay package (see framework-runner.mjs).
import { streamTurn } from '@patchbay/turn';

/** streamTurn, read to its end as a chat client would (every event), then its result. */
export async function streamTurnRunner(options) {
  const turn = streamTurn(options);
  const reader = turn.toUIMessageStream().getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
  return turn.result;
}
