import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGithub } from '@patchbay/connector-github';
import { PatchbayError } from '@patchbay/envelope';
import { type ApprovalPolicy, createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Seed 003 asks approval for any write to an external API; Patchbay's default asks it for destructive
// tools and untrusted servers only. Both are real here: the GitHub connector against a loopback
// server that counts every request that reaches it.
let server: Server;
let origin: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        number: 7,
        title: 'Hi',
        state: 'open',
        html_url: 'https://github.com/octo/demo/issues/7',
        body: null,
        labels: [],
        assignees: [],
        user: { login: 'octo' },
        comments: 0,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        id: 1,
        html: '',
        url: '',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
});

const subject = 'ana';
const issue = { owner: 'octo', repo: 'demo', title: 'Hi' };
const comment = { owner: 'octo', repo: 'demo', issue_number: 7, body: 'Thanks' };

async function orchestratorWith(approvals?: ApprovalPolicy) {
  const statusSource = createInMemoryStatusSource();
  statusSource.connect(subject, 'github', {
    credentials: { token: 'ghp_test' },
    scopes: ['repo'],
    verifiedOrigin: origin,
  });
  const orchestrator = createOrchestrator({
    statusSource,
    connectors: [createGithub({ baseUrl: origin })],
    ...(approvals ? { approvals } : {}),
  });
  await orchestrator.start();
  return orchestrator;
}

describe('approval policy', () => {
  it('runs github_create_issue unapproved by default (destructive mode)', async () => {
    const orchestrator = await orchestratorWith();
    const result = await orchestrator.execute('github_create_issue', issue, { subject });
    expect(result).toMatchObject({ ok: true });
    expect(requests).toEqual(['POST /repos/octo/demo/issues']);
  });

  it("needs approval for github_create_issue under { default: 'writes' }, and no request leaves", async () => {
    const orchestrator = await orchestratorWith({ default: 'writes' });
    const result = await orchestrator.execute('github_create_issue', issue, { subject });
    expect(result).toMatchObject({ ok: false, error_type: 'approval_required' });
    const read = await orchestrator.execute(
      'github_get_issue',
      { owner: 'octo', repo: 'demo', issue_number: 7 },
      { subject },
    );
    expect(read).toMatchObject({ ok: true });
    expect(requests).toEqual(['GET /repos/octo/demo/issues/7']);
  });

  it('applies the per-connector mode to every write of that connector', async () => {
    const orchestrator = await orchestratorWith({ connectors: { github: 'writes' } });
    expect(await orchestrator.execute('github_create_issue', issue, { subject })).toMatchObject({
      error_type: 'approval_required',
    });
    expect(await orchestrator.execute('github_comment_on_issue', comment, { subject })).toMatchObject({
      error_type: 'approval_required',
    });
    expect(requests).toEqual([]);
  });

  it('lets a per-tool mode win over the connector and the deployment', async () => {
    const orchestrator = await orchestratorWith({
      default: 'writes',
      tools: { github_comment_on_issue: 'destructive' },
    });
    expect(await orchestrator.execute('github_create_issue', issue, { subject })).toMatchObject({
      error_type: 'approval_required',
    });
    expect(await orchestrator.execute('github_comment_on_issue', comment, { subject })).toMatchObject({
      ok: true,
    });
    const only = await orchestratorWith({ tools: { github_create_issue: 'writes' } });
    expect(await only.execute('github_create_issue', issue, { subject })).toMatchObject({
      error_type: 'approval_required',
    });
    expect(requests).toEqual(['POST /repos/octo/demo/issues/7/comments']);
  });

  it('rejects an unknown mode when the orchestrator is created', () => {
    const statusSource = createInMemoryStatusSource();
    expect(() =>
      createOrchestrator({ statusSource, approvals: { connectors: { github: 'all' as 'writes' } } }),
    ).toThrow(PatchbayError);
    expect(() =>
      createOrchestrator({ statusSource, approvals: { tools: { x: 'nope' as 'writes' } } }),
    ).toThrow('approvals.tools.x: must be "destructive" or "writes"');
  });
});
