// Picks the model under test from ONE spec (`--agent`, PATCHBAY_EVAL_MODEL or the config's `model`):
//   openai:<model>        OpenAI (OPENAI_API_KEY)
//   anthropic:<model>     Anthropic (ANTHROPIC_API_KEY)
//   ollama:<model>        a local Ollama server through its OpenAI-compatible API (OLLAMA_BASE_URL, default http://localhost:11434/v1)
//   <base URL>|<model>    any OpenAI-compatible server, e.g. http://localhost:8000/v1|qwen3 (key from PATCHBAY_EVAL_API_KEY, optional)
// Unset: the offline reference agent (a rule-based stand-in, not a model). A baseline name picks a naive baseline.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ResolvedEvalConfig } from '../config.js';
import { baselines } from './baselines.js';
import { createReferenceAgent } from './reference-agent.js';

/** What the agent functions read of a config: its model, and how to name a model function. */
type ModelConfig = Partial<Pick<ResolvedEvalConfig, 'model' | 'modelLabel'>>;

/** Describes the model a spec names, without creating it (for reports). */
export function describeModel(spec?: string): string {
  if (!spec) return 'reference-agent (offline stand-in, not a model)';
  if (baselines[spec]) return `${spec} (naive baseline stand-in)`;
  return spec;
}

/** A LanguageModelV4 for a spec; a fresh instance per scenario, since stand-ins may hold state. */
export function modelFromSpec(spec?: string): LanguageModelV4 {
  if (!spec) return createReferenceAgent();
  const baseline = baselines[spec];
  if (baseline) return baseline();
  if (spec.includes('|')) {
    const [baseURL = '', modelId = ''] = spec.split('|');
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL,
      ...(process.env.PATCHBAY_EVAL_API_KEY ? { apiKey: process.env.PATCHBAY_EVAL_API_KEY } : {}),
    });
    return provider.chatModel(modelId);
  }
  const separator = spec.indexOf(':');
  const kind = spec.slice(0, separator);
  const modelId = spec.slice(separator + 1);
  if (separator < 1 || !modelId)
    throw new Error(
      `model "${spec}": expected openai:<model>, anthropic:<model>, ollama:<model> or <base URL>|<model>`,
    );
  if (kind === 'openai') return createOpenAI({}).chat(modelId);
  if (kind === 'anthropic') return createAnthropic({})(modelId);
  if (kind === 'ollama') {
    const baseURL = process.env.OLLAMA_BASE_URL ?? 'http://localhost:11434/v1';
    return createOpenAICompatible({ name: 'ollama', baseURL }).chatModel(modelId);
  }
  throw new Error(
    `model "${spec}": unknown provider "${kind}" (openai, anthropic, ollama, or <base URL>|<model>)`,
  );
}

/**
 * The spec of the agent to run: `--agent` (`explicit`), else `PATCHBAY_EVAL_MODEL`, else the
 * config's `model` when it is a spec; `''` means the config's model function or the reference agent.
 */
export function agentSpecOf(explicit: string | undefined, config?: ModelConfig): string {
  if (explicit !== undefined && explicit !== '') return explicit === 'reference' ? '' : explicit;
  if (process.env.PATCHBAY_EVAL_MODEL) return process.env.PATCHBAY_EVAL_MODEL;
  return typeof config?.model === 'string' ? config.model : '';
}

/** A fresh model for `spec` (see {@link agentSpecOf}); `''` is the config's model function, if any. */
export function agentFor(spec: string, config?: ModelConfig): LanguageModelV4 {
  if (!spec && typeof config?.model === 'function') return config.model();
  return modelFromSpec(spec || undefined);
}

/** How reports name the agent of `spec`. */
export function describeAgent(spec: string, config?: ModelConfig): string {
  if (!spec && typeof config?.model === 'function') return config.modelLabel ?? 'configured model';
  return describeModel(spec || undefined);
}
