import type { Connector, StatusSnapshot } from '@patchbay/connector';
import { renderTurnContext, type StatusBlockSettings } from '@patchbay/protocol';
import type { RequestHandlerExtra, Server } from '../sdk.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '../sdk.js';
import { serveRequest } from './serve-request.js';
import { connectorStatusResourceUri, type StatusWatch } from './status-watch.js';

type Request = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Name of the prompt returning the current per-turn context block. */
export const connectorStatusPromptName = 'connector_status';

/**
 * Refuses a pagination cursor: the gateway answers every list in one page, so any cursor is one it
 * never issued (MCP: invalid params).
 */
export function refuseCursor(params: { cursor?: string | undefined } | undefined): void {
  if (params?.cursor !== undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Unknown cursor: this server answers every list in one page.',
    );
  }
}

/**
 * Registers the status resource (read, subscribe) and prompt: the per-turn context block, for hosts
 * that attach it, since MCP has no per-message context of its own.
 */
export function registerStatusResources(
  server: Server,
  dependencies: {
    connectors: readonly Connector[];
    subjectOf(request: Request): string | Promise<string>;
    capture(subject: string): Promise<StatusSnapshot>;
    watch: StatusWatch;
    statusBlock: StatusBlockSettings;
  },
): void {
  const { connectors, watch } = dependencies;

  async function currentContext(request: Request): Promise<string> {
    const subject = await dependencies.subjectOf(request);
    const snapshot = await dependencies.capture(subject);
    watch.remember(subject, undefined, snapshot);
    return renderTurnContext(snapshot, { ...dependencies.statusBlock, connectors });
  }

  serveRequest(server, ListResourcesRequestSchema, async (request) => {
    refuseCursor(request.params);
    return {
      resources: [
        {
          uri: connectorStatusResourceUri,
          name: 'connector-status',
          title: 'Connector status',
          description:
            'The current time and connector status for this user, as the per-turn context block a model reads.',
          mimeType: 'text/plain',
        },
      ],
    };
  });

  serveRequest(server, ReadResourceRequestSchema, async (request, extra) => {
    if (request.params.uri !== connectorStatusResourceUri) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
    }
    return {
      contents: [
        { uri: connectorStatusResourceUri, mimeType: 'text/plain', text: await currentContext(extra) },
      ],
    };
  });

  serveRequest(server, SubscribeRequestSchema, async (request, extra) => {
    if (request.params.uri !== connectorStatusResourceUri) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
    }
    watch.setSubscribed(true);
    const subject = await dependencies.subjectOf(extra);
    await watch.rememberStatusIfUnknown(subject, () => dependencies.capture(subject));
    return {};
  });

  serveRequest(server, UnsubscribeRequestSchema, async () => {
    watch.setSubscribed(false);
    return {};
  });

  serveRequest(server, ListPromptsRequestSchema, async (request) => {
    refuseCursor(request.params);
    return {
      prompts: [
        {
          name: connectorStatusPromptName,
          title: 'Connector status',
          description:
            'Attaches the current time and connector status for this user to the conversation, as the per-turn context block.',
        },
      ],
    };
  });

  serveRequest(server, GetPromptRequestSchema, async (request, extra) => {
    if (request.params.name !== connectorStatusPromptName) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}`);
    }
    return {
      description: 'Current connector status',
      messages: [{ role: 'user', content: { type: 'text', text: await currentContext(extra) } }],
    };
  });
}
