// The stand-in connectors may only use a real connector's tool name, or a name declared as a
// stand-in (with why): a scenario on a stand-in then exercises the tool name the product ships,
// or says openly that it cannot. Also: every package scenario's connectors are the real packages.
import { describe, expect, it } from 'vitest';
import { createEvalConnectors, standInOnlyTools } from '../connectors/eval-connectors.mjs';
import { packageConnectors } from '../connectors/package-connectors.mjs';

const realTools = new Set(
  Object.values(packageConnectors).flatMap((connector) => connector.tools.map((tool) => tool.name)),
);
const standInTools = createEvalConnectors().flatMap((connector) => connector.tools.map((tool) => tool.name));

describe('stand-in connectors', () => {
  it('runs on all eight real connector packages', () => {
    expect(Object.keys(packageConnectors).sort()).toEqual(
      ['discord', 'email', 'github', 'jira', 'linear', 'notion', 'slack', 'sms'].sort(),
    );
  });

  it('names every stand-in tool after a real tool or declares it a stand-in', () => {
    const undeclared = standInTools.filter((name) => !realTools.has(name) && !(name in standInOnlyTools));
    expect(undeclared).toEqual([]);
  });

  it('declares as stand-ins only tools that exist as stand-ins and not in a real connector', () => {
    for (const name of Object.keys(standInOnlyTools)) {
      expect(standInTools, name).toContain(name);
      expect(realTools.has(name), name).toBe(false);
    }
  });
});
