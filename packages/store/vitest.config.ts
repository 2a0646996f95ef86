import shared, { forCommonJsPg } from '../../vitest.shared.ts';

export default forCommonJsPg(shared);
