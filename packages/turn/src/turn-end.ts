import { askUserReply, type InteractiveFailure, questionsOf, withQuestions } from './retry-guidance.js';
import type { TurnEnding } from './turn-loop.js';
import type { TurnSettings } from './turn-settings.js';
import type { TurnOutcome } from './turn-types.js';

/** How the turn ends for the user: the outcome, the reply and the questions it puts to them. */
export interface TurnConclusion {
  outcome: TurnOutcome;
  reply: string;
  questions: string[];
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * The reply for the way the loop ended. A model reply given while calls still wait for the user gets
 * their questions added, whatever the model wrote; a stopped turn says it stopped.
 */
export function concludeTurn(
  ending: TurnEnding,
  openFailures: readonly InteractiveFailure[],
  settings: Pick<TurnSettings, 'maxSteps' | 'modelTimeoutMs'>,
): TurnConclusion {
  switch (ending.kind) {
    case 'stopped':
      return {
        outcome: ending.outcome,
        questions: [],
        reply:
          ending.outcome === 'aborted'
            ? 'I stopped because the request was cancelled.'
            : `I stopped because the model did not answer within ${duration(settings.modelTimeoutMs)}.`,
      };
    case 'ask_user':
      return {
        outcome: 'asked_user',
        questions: questionsOf(ending.failures),
        reply: askUserReply(ending.failures),
      };
    case 'step_limit': {
      const questions = questionsOf(openFailures);
      return {
        outcome: 'step_limit',
        questions,
        reply: withQuestions(
          `I stopped after ${settings.maxSteps} steps without finishing this request.`,
          questions,
        ),
      };
    }
    case 'replied': {
      const questions = questionsOf(openFailures);
      return questions.length > 0
        ? { outcome: 'asked_user', questions, reply: withQuestions(ending.text, questions) }
        : { outcome: 'replied', questions, reply: ending.text };
    }
  }
}
