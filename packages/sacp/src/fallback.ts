import type { SacpReply } from './reply.js';

/** Default cap on the raw text kept in a fallback reply's `data.raw_output`. */
export const defaultMaxRawOutputChars = 8000;

/**
 * Wraps text that could not be read as a reply into a valid `failure` reply, keeping the raw text
 * (cut to `maxRawOutputChars`) in `data.raw_output` so nothing the model said is lost.
 */
export function fallbackReply(
  rawText: string,
  reason: string,
  maxRawOutputChars: number = defaultMaxRawOutputChars,
): SacpReply {
  const data: Record<string, unknown> = {
    raw_output: truncateText(rawText, maxRawOutputChars),
    parse_error: reason,
  };
  if (rawText.length > maxRawOutputChars) {
    data.raw_output_truncated = true;
    data.raw_output_length = rawText.length;
  }
  return {
    thought: '',
    status: 'failure',
    data,
    message: `The agent's reply could not be read as a structured reply: ${reason}.`,
  };
}

/** Cuts text to at most `limit` UTF-16 units without splitting a surrogate pair. */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = Math.max(0, limit);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}
