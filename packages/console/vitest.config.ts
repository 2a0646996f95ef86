import shared, { forCommonJsPg } from '../../vitest.shared.ts';

// The live-feed test also runs on Postgres, through the store's optional `pg`.
export default forCommonJsPg(shared);
