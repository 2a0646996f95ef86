export { __id__, type __Name__Settings, create__Name__ } from './__ID__-connector.js';
