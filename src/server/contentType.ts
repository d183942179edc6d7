/**
 * The content types a JSON-RPC body may be sent with: go-ethereum's. Both ways in (fastHttp.ts's
 * simple requests and http.ts's Node server) take the same ones, so a request is never answered
 * on one path and refused with 415 on the other.
 */
const JSON_CONTENT_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

/** The media type of a Content-Type header, without parameters, lower case (`Application/JSON; charset=utf-8` → `application/json`). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a media type (mediaTypeOf) is one a JSON-RPC body is accepted in. */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_CONTENT_TYPES.has(mediaType);
}
