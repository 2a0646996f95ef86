export { __id__, type __Name__Settings, connectorFactory, create__Name__ } from './__ID__-connector.js';
