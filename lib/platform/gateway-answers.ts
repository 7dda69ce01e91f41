/**
 * What API Gateway answers itself, before or around the function: its own `{"message": …}` body,
 * never the envelope, and no `X-Request-Id` (no function ran), only its `apigw-requestid`. The
 * sandbox (local/http-server.ts) answers with these, and docs/errors.md lists them.
 */
import { DEFAULT_TIMEOUT_SECONDS } from './timeouts.ts';

export interface GatewayAnswer {
  status: number;
  /** The body's `message`. */
  message: string;
  /** When API Gateway answers it. */
  when: string;
  /** Whether the sandbox answers it too (the others need AWS's fleet: a stage throttle, a 30 s gateway timeout). */
  inSandbox: boolean;
}

/**
 * API Gateway HTTP APIs refuse a request whose request line and header values together pass
 * 10,240 bytes, a quota that cannot be raised
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html, "Total
 * combined size of request line and header values"). The page gives no status; clients meet a 431
 * (reported at https://backbencher.dev/solved-431-status-code-with-request-header-fields-too-large),
 * and the body here is API Gateway's own shape with that status's reason phrase.
 */
export const GATEWAY_HEADER_BYTES = 10_240;

/**
 * A request HTTP cannot take. RFC 9110 §5.5: a recipient of NUL, CR or LF in a field value must
 * refuse the request or replace each with a space; over HTTP/2 such a request is malformed (RFC 9113
 * §8.2.1), as is a field name that is no token. AWS does not document what an HTTP API answers (nor
 * whether it replaces instead): the status is HTTP's for a request the server cannot parse, the body
 * API Gateway's own shape with its reason phrase, as for the 431. Any other control character in a
 * value reaches the function, which answers 400 `invalid_header` (lib/platform/http/middleware/header-values.ts).
 */
const MALFORMED_REQUEST_WHEN =
  'a header value holds NUL, CR or LF (RFC 9110 §5.5: refused, or each replaced by a space; AWS does not say which), or the ' +
  'request line or a header name cannot be parsed; other control characters in a value reach the operation: 400 `invalid_header`';

export const GATEWAY_ANSWERS = {
  malformedRequest: { status: 400, message: 'Bad Request', when: MALFORMED_REQUEST_WHEN, inSandbox: true },
  headersTooLarge: {
    status: 431,
    message: 'Request Header Fields Too Large',
    when: `the request line and header values together pass ${GATEWAY_HEADER_BYTES.toLocaleString('en')} bytes (an HTTP API quota AWS does not raise)`,
    inSandbox: true,
  },
  requestTooLong: {
    status: 413,
    message: 'Request Too Long',
    when:
      "the event (body, headers and request context) passes Lambda's 6 MB payload limit, lower than API Gateway's 10 MB, so it is " +
      'the one a client meets',
    inSandbox: true,
  },
  throttled: {
    status: 429,
    message: 'Too Many Requests',
    // The CDK stack's default (cdk/portal-api-stack.ts, `throttle`).
    when: "past the stage's throttle (by default 1,000 requests a second, bursts of 2,000)",
    inSandbox: false,
  },
  /**
   * A function that ran past its timeout is stopped by Lambda, and the invocation answers API Gateway
   * with a function error (`FunctionError`, https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html),
   * as a function that threw past our middleware does. An HTTP API answers a Lambda integration's error
   * with 500 `{"message":"Internal Server Error"}`
   * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-troubleshooting-lambda.html):
   * not 504 (a REST API's INTEGRATION_TIMEOUT), nor 503 (an HTTP API's own answer once the integration
   * passes its 30 s, `gatewayTimeout` below, which no route's timeout reaches: the longest, MCP's, is 28 s).
   */
  functionFailed: {
    status: 500,
    message: 'Internal Server Error',
    when: `the function fails outside our code, or runs past its timeout (${DEFAULT_TIMEOUT_SECONDS} s unless its route says otherwise)`,
    inSandbox: true,
  },
  gatewayTimeout: { status: 503, message: 'Service Unavailable', when: "past API Gateway's own 30 s", inSandbox: false },
} as const satisfies Record<string, GatewayAnswer>;
