import { readFileSync } from 'node:fs';
import type { ParseSacpResult } from '../parse-sacp.js';

/** A corpus input: literal text, or a repeated chunk so huge cases stay small on disk. */
export type CorpusInput =
  | string
  | { repeat: { prefix: string; item: string; times: number; suffix: string } };

/** What a corpus case expects from `parseSacp`. */
export interface CorpusExpectation {
  ok: boolean;
  status: string;
  /** Repairs that must all be reported (a subset; others may appear). */
  repairs: string[];
  fallback?: boolean;
  data?: Record<string, unknown>;
  message?: string;
  next_step_hint?: string;
  /** The fallback's raw_output was cut to the limit. */
  raw_truncated?: boolean;
}

/** One realistic model output and the parse result it should give. */
export interface CorpusCase {
  name: string;
  input: CorpusInput;
  expect: CorpusExpectation;
}

/** Loads the messy-output corpus that drives the table test and the benchmark. */
export function loadCorpus(): CorpusCase[] {
  const url = new URL('./messy-outputs.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as CorpusCase[];
}

/** Expands a corpus input to the text given to the parser. */
export function corpusText(input: CorpusInput): string {
  if (typeof input === 'string') return input;
  const { prefix, item, times, suffix } = input.repeat;
  return prefix + item.repeat(times) + suffix;
}

/** Lists how a parse result differs from a case's expectation; empty when it matches. */
export function mismatches(result: ParseSacpResult, expect: CorpusExpectation): string[] {
  const problems: string[] = [];
  if (result.ok !== expect.ok) problems.push(`ok: expected ${expect.ok}, got ${result.ok}`);
  if (result.reply.status !== expect.status)
    problems.push(`status: expected ${expect.status}, got ${result.reply.status}`);
  for (const repair of expect.repairs) {
    if (!(result.repairs as string[]).includes(repair))
      problems.push(`missing repair ${repair} (got ${result.repairs.join(', ')})`);
  }
  if (expect.fallback !== undefined && result.fallback !== expect.fallback) {
    problems.push(`fallback: expected ${expect.fallback}, got ${result.fallback}`);
  }
  if (expect.data !== undefined && JSON.stringify(result.reply.data) !== JSON.stringify(expect.data)) {
    problems.push(`data: expected ${JSON.stringify(expect.data)}, got ${JSON.stringify(result.reply.data)}`);
  }
  if (expect.message !== undefined && result.reply.message !== expect.message) {
    problems.push(`message: expected ${expect.message}, got ${result.reply.message}`);
  }
  if (expect.next_step_hint !== undefined && result.reply.next_step_hint !== expect.next_step_hint) {
    problems.push(`next_step_hint: expected ${expect.next_step_hint}, got ${result.reply.next_step_hint}`);
  }
  if (
    expect.raw_truncated !== undefined &&
    (result.reply.data.raw_output_truncated === true) !== expect.raw_truncated
  ) {
    problems.push(`raw_output_truncated: expected ${expect.raw_truncated}`);
  }
  return problems;
}
