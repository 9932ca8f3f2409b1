// infra -> the one Lambda function shape of the service: every function is a ServiceFunction.
import { Duration } from 'aws-cdk-lib';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import {
  type Charset,
  LogLevel,
  NodejsFunction,
  type NodejsFunctionProps,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import { acknowledge } from './checks';
import { KOA_MIME_TYPES, TRIMMED_MIME_DB } from './mime-database';
import { fromRoot, PROJECT_ROOT } from './paths';
import { copyCjkFaceCommands, copyPdfjsAssetsCommands } from './pdfjs-assets';
import { copyTextLayerFontCommands } from './text-layer-font-assets';

/**
 * Modules left out of every bundle. `@napi-rs/canvas` is native (its binary is per platform) and only
 * page rendering needs it; pdfjs-dist loads it lazily, so the API functions run without it.
 */
export const EXTERNAL_MODULES = ['@napi-rs/canvas'];

/** The native package a rendering function installs beside its bundle, with its Linux ARM64 binary. */
export const CANVAS_MODULE = '@napi-rs/canvas';

/**
 * What `npm ci` in a rendering function's bundle installs for: the Lambda platform (Linux, glibc, ARM64),
 * not the machine that synthesises. npm then picks `@napi-rs/canvas-linux-arm64-gnu` among the canvas
 * package's optional dependencies, at the version and integrity of the project's lock file, from the
 * same registry as every other package (no Docker, no network beyond it); it takes about a second.
 */
export const LAMBDA_NPM_PLATFORM: Readonly<Record<string, string>> = {
  npm_config_os: 'linux',
  npm_config_cpu: 'arm64',
  npm_config_libc: 'glibc',
};

/** Lets bundled CommonJS dependencies call `require` inside the ESM output. */
const REQUIRE_BANNER =
  "import { createRequire as __serviceCreateRequire } from 'node:module'; const require = __serviceCreateRequire(import.meta.url);";

/** esbuild's settings for every function's code, shared with the bench that measures the bundles. */
export const BUNDLE_SETTINGS = {
  target: 'node24',
  mainFields: ['module', 'main'],
  banner: REQUIRE_BANNER,
  minify: true,
  /**
   * Non-ASCII text as UTF-8, not `\uXXXX` escapes (esbuild's default): the same strings, but the identity
   * provider's homoglyph table (unhomoglyph) and other Unicode data take 2-3 bytes a character, not 6.
   */
  charset: 'utf8',
  /**
   * Deployed functions take their credentials from the environment Lambda sets: the SDK's default chain
   * (its other links, with the STS and SSO clients, ~110 KB of every bundle) is aliased to that one link.
   */
  alias: {
    '@aws-sdk/credential-provider-node': fromRoot('lambdas/hosts/aws/environment-credentials.ts'),
    /**
     * One MIME database for every package that reads one, not three (npm nests koa's, type-is' and
     * accepts' copies): koa's, trimmed to what mime-types reads (lib/mime-database.ts), 70 KB not 160.
     */
    'mime-types': KOA_MIME_TYPES,
    'mime-db': TRIMMED_MIME_DB,
    /** The MCP SDK's Node shims without Ajv, which the tools never call (the file says why). */
    '@modelcontextprotocol/server/_shims': fromRoot('lambdas/hosts/aws/mcp-sdk-shims.ts'),
  },
  /**
   * Stack traces name the sources' files and lines, the map read on the first stack written
   * (lambdas/hosts/aws/source-mapped-stacks.ts) rather than by Node's `--enable-source-maps`, which
   * reads it as the bundle loads: 30–40 ms of every cold start.
   */
  inject: [fromRoot('lambdas/hosts/aws/source-mapped-stacks.ts')],
} as const;

/** The same settings as esbuild's own options, for what bundles a function's code as `cdk synth` does. */
export const DEPLOYED_BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_SETTINGS.target,
  mainFields: [...BUNDLE_SETTINGS.mainFields],
  banner: { js: BUNDLE_SETTINGS.banner },
  minify: BUNDLE_SETTINGS.minify,
  charset: BUNDLE_SETTINGS.charset,
  alias: BUNDLE_SETTINGS.alias,
  inject: [...BUNDLE_SETTINGS.inject],
  sourcemap: true,
  sourcesContent: false,
  external: EXTERNAL_MODULES,
  logLevel: 'error',
} satisfies BuildOptions;

export interface ServiceFunctionProps
  extends Omit<NodejsFunctionProps, 'entry' | 'runtime' | 'architecture' | 'bundling' | 'code' | 'logGroup'> {
  /** Handler module, relative to the repository root, e.g. `lambdas/hosts/aws/functions/token.ts`. */
  readonly entry: string;
  /**
   * Renders pages with `@napi-rs/canvas`: the package and its Linux ARM64 binary are installed into
   * `node_modules` beside the bundle (it stays external to the bundle either way).
   */
  readonly renders?: boolean;
  /** Writes hosted pages, which carry the text layer's font: its files are copied beside the bundle. */
  readonly publishesPages?: boolean;
  /**
   * Reads PDFs with pdf.js (its entry wires the PDF ports): pdf.js's worker and data files are copied
   * beside the bundle. A function that `renders` reads PDFs too.
   */
  readonly readsPdfs?: boolean;
}

/**
 * A `NodejsFunction` with the service's defaults: Node 24 on ARM64, ESM bundled by the local esbuild
 * (never Docker), minified with source maps read on demand, one-month logs in Lambda's JSON format and X-Ray tracing. A function that
 * `renders` also gets `@napi-rs/canvas` with its Linux ARM64 binary, installed by `npm ci` beside the
 * bundle for the Lambda platform whatever machine synthesises (it needs the npm registry, not Docker).
 *
 * @example new ServiceFunction(this, 'Token', { entry: 'lambdas/hosts/aws/functions/token.ts' });
 */
export class ServiceFunction extends NodejsFunction {
  constructor(
    scope: Construct,
    id: string,
    { renders = false, publishesPages = false, readsPdfs = renders, ...props }: ServiceFunctionProps,
  ) {
    // Created beside the function (not by the Lambda service on first call) so retention is ours.
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    super(scope, id, {
      memorySize: 1024,
      // Below the HTTP API's 30 s integration limit, so the function's own timeout is what gets logged.
      timeout: Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      ...props,
      entry: fromRoot(props.entry),
      handler: props.handler ?? 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      logGroup,
      // The service logs JSON lines (lambdas/core/log.ts); Lambda's JSON format keeps them as they are,
      // adds its own lines as JSON too, and tells the logger its level (AWS_LAMBDA_LOG_LEVEL).
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.WARN,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: fromRoot('package-lock.json'),
      // No `--enable-source-maps`: the injected source-mapped-stacks.ts reads the map when a stack needs it.
      environment: props.environment,
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: BUNDLE_SETTINGS.target,
        mainFields: [...BUNDLE_SETTINGS.mainFields],
        banner: BUNDLE_SETTINGS.banner,
        minify: BUNDLE_SETTINGS.minify,
        // CDK's enum of esbuild's own values.
        charset: BUNDLE_SETTINGS.charset as Charset,
        esbuildArgs: Object.fromEntries(
          Object.entries(BUNDLE_SETTINGS.alias).map(([from, to]) => [`--alias:${from}`, to]),
        ),
        inject: [...BUNDLE_SETTINGS.inject],
        sourceMap: true,
        // File and line are enough for stack traces; the sources would only grow the package.
        sourcesContent: false,
        // Warnings and errors only: the per-file size table of every bundle drowns the synth output.
        logLevel: LogLevel.WARNING,
        // The SDK is bundled: the deployed code runs the SDK version the tests ran against.
        bundleAwsSDK: true,
        externalModules: EXTERNAL_MODULES,
        ...(renders && { nodeModules: [CANVAS_MODULE], environment: { ...LAMBDA_NPM_PLATFORM } }),
        // A function that reads PDFs needs pdf.js's worker and data files on disk (copied after
        // `npm ci`, which would empty node_modules). The lock file CDK copies in for `npm ci` is the
        // whole project's: it is left out of the package.
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_inputDir, outputDir) => [
            ...(readsPdfs ? copyPdfjsAssetsCommands(outputDir) : []),
            ...(publishesPages ? copyTextLayerFontCommands(outputDir) : []),
            ...(renders ? copyCjkFaceCommands(outputDir) : []),
            ...(renders ? [`rm -f "${outputDir}/package-lock.json"`] : []),
          ],
        },
      },
    });
    acknowledge(
      this,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'Lambda’s basic execution policy: writing its own log lines, nothing else.',
    );
    acknowledge(
      this,
      'AwsSolutions-IAM5[Resource::*]',
      'Only actions that take no resource: X-Ray’s PutTraceSegments and PutTelemetryRecords (active tracing), for a stream consumer dynamodb:ListStreams, and for a rotation function secretsmanager:GetRandomPassword (test/infra checks no other).',
    );
  }
}
