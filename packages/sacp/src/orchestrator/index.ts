export { type TurnAgentEvent, type TurnAgentRunnerOptions, turnAgentRunner } from './turn-agent-runner.js';
