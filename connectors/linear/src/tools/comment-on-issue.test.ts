import { callConnectorTool, createTestServer } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import {
  answerByOperation,
  commentCreated,
  issueNode,
  operationOf,
  variablesOf,
} from '../fixtures/linear-responses.js';
import { linear } from '../linear-connector.js';

const endpoint = 'https://api.linear.app/graphql';
const server = createTestServer({ [`POST ${endpoint}`]: answerByOperation });
const apiKey = 'lin_api_test0000000000000000000000';
const credentials = { api_key: apiKey };
const call = (name: string, input: unknown, connector = linear, given = credentials) =>
  callConnectorTool(connector, name, input, { credentials: given });

describe('linear_comment_on_issue', () => {
  it('resolves the identifier to the issue id and creates the comment', async () => {
    const envelope = await call('linear_comment_on_issue', {
      issue_id: 'ENG-123',
      body: 'Reproduced on Chrome.',
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        issue_id: 'ENG-123',
        comment_id: commentCreated.data.commentCreate.comment.id,
        url: commentCreated.data.commentCreate.comment.url,
      },
    });
    expect(server.calls.map(operationOf)).toEqual(['PatchbayIssueId', 'PatchbayCreateComment']);
    expect(variablesOf(server.calls[1])).toEqual({
      input: { issueId: issueNode.id, body: 'Reproduced on Chrome.' },
    });
  });

  it('asks what to say when the body is missing', async () => {
    const envelope = await call('linear_comment_on_issue', { issue_id: 'ENG-123' });
    expect(envelope).toMatchObject({
      error_type: 'needs_input',
      missing: [{ field: 'body', question: 'What should the comment say?' }],
    });
    expect(server.calls).toHaveLength(0);
  });
});
