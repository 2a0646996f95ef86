import { render } from 'preact';

render(<h1>Patchbay console</h1>, document.getElementById('root')!);
