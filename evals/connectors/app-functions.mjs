// An application's own function tool, for the gate callers' scenarios (`callers.agents` of the
// config): `digest_github_issue` has no connector of its own but reads GitHub through the app, so it
// `requires` GitHub to be connected: the gate must check that for a tool outside any connector. What
// GitHub answered it reports as GitHub's envelope (`connector: github`), which the gate writes back
// into GitHub's status: the repository `acme/busy` is rate limited (120 s), `acme/revoked` answers
// that the token was revoked.
import { failure } from '@patchbay/envelope';
import { fromFunction } from '@patchbay/orchestrator';
import { z } from 'zod';

/** The app function; each run is logged in `log` (`{ tool, input }`) for the `ran` check. */
export function digestFunction(log) {
  return fromFunction({
    name: 'digest_github_issue',
    description: 'Summarises a GitHub issue for a weekly digest.',
    input: z.object({ repo: z.string(), number: z.number().int() }),
    effect: 'read',
    requires: ['github'],
    execute: (input) => {
      log.push({ tool: 'digest_github_issue', input });
      if (input.repo === 'acme/busy')
        return failure('rate_limited', { connector: 'github', retryAfterS: 120 });
      if (input.repo === 'acme/revoked')
        return failure('invalid_credentials', {
          connector: 'github',
          userMessage: 'GitHub answered that the token was revoked.',
        });
      return { summary: `Issue ${input.number} of ${input.repo}` };
    },
  });
}
