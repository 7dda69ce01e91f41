/**
 * Who a `client_id` is: a client registered here (RFC 7591), or, when it is an https URL, the
 * client that URL's Client ID Metadata Document describes (draft-ietf-oauth-client-id-metadata-document),
 * fetched through the SSRF-safe outbound client (lib/platform/outbound/: public addresses only, no
 * redirect followed, a deadline, 5 KB at most; the sandbox allows loopback over http, as it does for
 * webhook receivers). The document must name itself as `client_id` and list its redirect URIs.
 */

import { getDocument } from '../../platform/outbound/http-post.ts';
import { guardOptionsFromEnvironment } from '../../platform/outbound/ssrf.ts';
import { invalidClient, oauthRefusal } from './errors.ts';
import { findClient } from './store/clients.ts';

export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: readonly string[];
}

const METADATA_DOCUMENT_BYTES = 5 * 1024;
const METADATA_TIMEOUT_MS = 5_000;

/** Whether `client_id` is a metadata document's URL rather than a registered id. */
function isMetadataUrl(clientId: string): boolean {
  return /^https?:\/\//.test(clientId);
}

/** A redirect URI a client may register: https, or http on loopback (a native app's, RFC 8252 §7.3). */
export function acceptableRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

async function fromMetadataDocument(clientId: string): Promise<OAuthClient> {
  const url = new URL(clientId);
  if (url.protocol !== 'https:' && !guardOptionsFromEnvironment().allowHttp) {
    throw invalidClient('A client metadata document must be served over https');
  }
  const fetched = await getDocument(clientId, { maxResponseBytes: METADATA_DOCUMENT_BYTES, timeoutMs: METADATA_TIMEOUT_MS });
  if (fetched.text === null)
    throw oauthRefusal('invalid_client_metadata', `The client metadata document could not be read: ${fetched.error}`);
  let document: { client_id?: unknown; client_name?: unknown; redirect_uris?: unknown };
  try {
    document = JSON.parse(fetched.text);
  } catch {
    throw oauthRefusal('invalid_client_metadata', 'The client metadata document is not JSON');
  }
  const uris = document.redirect_uris;
  if (document.client_id !== clientId)
    throw oauthRefusal('invalid_client_metadata', 'The client metadata document names another client_id');
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string' && acceptableRedirectUri(uri))) {
    throw oauthRefusal('invalid_client_metadata', 'The client metadata document lists no acceptable redirect_uris');
  }
  const name = typeof document.client_name === 'string' && document.client_name.trim() !== '' ? document.client_name.trim() : url.host;
  return { clientId, clientName: name.slice(0, 200), redirectUris: uris as string[] };
}

export async function resolveClient(workspace: string, clientId: string): Promise<OAuthClient> {
  if (isMetadataUrl(clientId)) return fromMetadataDocument(clientId);
  const registered = await findClient(workspace, clientId);
  if (!registered) throw invalidClient('No client with this client_id is registered with this workspace');
  return registered;
}
