import type { Connector } from '@patchbay/connector';
import { PatchbayError } from '@patchbay/envelope';
import { type ProtocolBlockName, protocolBlockNames, protocolBlocks } from './prompt-blocks.js';

/** Arguments of {@link buildSystemPrompt}. */
export interface BuildSystemPromptOptions {
  /** Who the agent is and what it is for; comes first, unchanged. */
  identity: string;
  /** Which protocol blocks to include; all by default. Written in the canonical order whatever the order given. */
  blocks?: readonly ProtocolBlockName[];
  /**
   * Installed connectors to describe in a static catalog. Status is not part of it, so it is the same
   * for every user of a deployment; what each user has connected arrives per turn. With a catalog, render
   * the per-turn context with `catalogInSystemPrompt: true` to keep only the first `would_enable` entry.
   */
  catalog?: readonly Connector[];
}

function renderCatalog(connectors: readonly Connector[]): string {
  const lines = [...connectors]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((connector) => {
      const tools = connector.tools
        .map((tool) => tool.name)
        .sort()
        .join(', ');
      const wouldEnable =
        connector.wouldEnable.length > 0 ? ` Would enable: ${connector.wouldEnable.join('; ')}.` : '';
      return `- ${connector.id} (${connector.name}): ${connector.description} Can: ${connector.capabilities.join('; ')}. Tools: ${tools}.${wouldEnable}`;
    });
  return [
    'Connectors installed in this deployment. Whether each one is usable for the current user is only in',
    '<connector_status>; a connector missing from it must not be mentioned. Where "would_enable" there names',
    'less than the line below, the line below is the full list.',
    ...lines,
  ].join('\n');
}

/**
 * Builds the static system prompt: identity, the selected protocol blocks, optionally the connector
 * catalog. It takes no time, user or status, so it is byte-identical across turns and users of the
 * same configuration and stays in the provider's prompt cache.
 */
export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
  const selected = new Set<string>(options.blocks ?? protocolBlockNames);
  for (const name of selected) {
    if (!(protocolBlockNames as readonly string[]).includes(name)) {
      throw new PatchbayError(
        'invalid_arguments',
        `unknown protocol block "${name}"; expected one of ${protocolBlockNames.join(', ')}`,
      );
    }
  }
  const sections = [options.identity.trim()];
  for (const name of protocolBlockNames) {
    if (selected.has(name)) sections.push(`<${name}>\n${protocolBlocks[name]}\n</${name}>`);
  }
  if (options.catalog && options.catalog.length > 0) {
    sections.push(`<connector_catalog>\n${renderCatalog(options.catalog)}\n</connector_catalog>`);
  }
  return sections.filter((section) => section.length > 0).join('\n\n');
}
