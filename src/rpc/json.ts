/** A JSON value, as the RPC layer sends it. Results and error data must be of this type. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };
export type JsonObject = { [key: string]: Json | undefined };
