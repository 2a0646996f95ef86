export { connectorFactory, createLinear, type LinearSettings, linear } from './linear-connector.js';
