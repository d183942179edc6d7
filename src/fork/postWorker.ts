/**
 * The thread that reads the fork upstream's answers (postThread.ts starts it): each message
 * is one POST, run by postCappedBytes with this thread's keep-alive connections, and answered
 * with the answer's status, headers and body (its ArrayBuffer transferred, not copied), or the
 * failure's kind and message. Reading a large answer here costs this thread's CPU time, not
 * the node's event loop. Its first message says it is ready.
 */
import { parentPort } from 'node:worker_threads';
import { agentsByOrigin, PostFailure, postCappedBytes } from './httpPost.js';
import type { PostReply, PostRequest, ThreadReady } from './postThread.js';

/** Keep-alive connections, one agent per upstream origin. */
const agentFor = agentsByOrigin();

async function answer(request: PostRequest): Promise<PostReply> {
  const url = new URL(request.url);
  try {
    const { status, headers, bytes } = await postCappedBytes(url, agentFor(url), request.headers, request.body, request.limits);
    return { id: request.id, ok: true, status, headers, bytes };
  } catch (error) {
    if (error instanceof PostFailure) return { id: request.id, ok: false, kind: error.kind, message: error.message };
    return { id: request.id, ok: false, kind: 'unreachable', message: `unreachable (${error instanceof Error ? error.message : String(error)})` };
  }
}

const port = parentPort;
if (port) {
  port.on('message', (request: PostRequest) => {
    void answer(request).then((reply) => port.postMessage(reply, reply.ok ? [reply.bytes.buffer as ArrayBuffer] : []));
  });
  port.postMessage({ ready: true } satisfies ThreadReady);
}
