import { z } from 'zod';
import { maxBlocksPerRequest, textToBlocks } from './notion-content.js';

/** Text a tool writes as Notion blocks, checked against Notion's per-request block limit before any request. */
export function notionTextSchema(description: string) {
  return z
    .string()
    .max(200_000)
    .describe(
      `${description}. Blank lines separate paragraphs; lines starting with "# ", "- " or "1. " become headings, bullets and numbered items`,
    )
    .refine((text) => textToBlocks(text).length <= maxBlocksPerRequest, {
      message: `at most ${maxBlocksPerRequest} paragraphs, headings or list items in one call; send the rest in another call`,
    });
}
