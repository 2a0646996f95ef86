import { describeConnectorConformance } from '@patchbay/testing';
import { create__Name__ } from './__ID__-connector.js';

describeConnectorConformance(create__Name__(), {
  credentials: { token: 'test-token-0000000000' },
  samples: {
    __ID___get_item: { id: 'item-1' },
    __ID___create_item: { title: 'First item' },
  },
});
