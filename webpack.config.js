// Builds the add-in's pages into dist/:
// - taskpane.html: the shared runtime page (custom functions bundle first, then the task pane),
// - functions.json: custom function metadata generated from the JSDoc in src/functions/functions.ts,
// - dialog.html and redirect.html: the sign-in pages,
// - manifest.xml (URLs rewritten for ADDIN_PUBLIC_URL in production, AppDomains for the service,
//   sign-in and broker origins), icons,
// - office.js: a local copy in development and test builds; production pages load it from
//   Microsoft's CDN (OFFICE_JS_LOCAL=true keeps the local copy, for isolated clouds).
// `webpack serve` runs the dev server on https://localhost:3000 with the localhost certificates.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import CopyWebpackPlugin from "copy-webpack-plugin";
import CustomFunctionsMetadataPlugin from "custom-functions-metadata-plugin";
import HtmlWebpackPlugin from "html-webpack-plugin";
import { tsImport } from "tsx/esm/api";
import webpack from "webpack";

const root = path.dirname(fileURLToPath(import.meta.url));
const DEV_SERVER_PORT = 3000;
/** Which entry chunks each page loads, in order (the shared runtime page runs the functions first). */
const PAGES = {
  "taskpane.html": ["functions", "taskpane"],
  "dialog.html": ["dialog"],
  "redirect.html": ["redirect"],
};
/** The task pane's goal for the JavaScript it loads before first paint (gzip, office.js aside). */
const TASKPANE_INITIAL_JS_GOAL_KIB = 85;

/** The typed build helpers in scripts/, loaded through tsx (this file stays plain JavaScript). */
async function buildHelpers() {
  const [certs, manifest] = await Promise.all([tsImport("./scripts/certs.ts", import.meta.url), tsImport("./scripts/build-manifest.ts", import.meta.url)]);
  return { ...certs, ...manifest };
}

/** office.js and its locale and host files, without the debug builds and typings nobody loads. */
function officeJsCopy() {
  return {
    from: path.join(root, "node_modules/@microsoft/office-js/dist"),
    to: "assets/office-js",
    globOptions: { ignore: ["**/*.debug.js", "**/*.d.ts", "**/*-vsdoc.js"] },
    // Already minified by Microsoft: without this the production build re-minifies 28 MB of it.
    info: { minimized: true },
  };
}

/** Microsoft's CDN address of office.js, which production pages must reference. */
const OFFICE_JS_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
const OFFICE_JS_LOCAL_SRC = 'src="assets/office-js/office.js"';

/** Points the pages' office.js script at the CDN (the templates reference the local copy). */
class OfficeJsCdnPlugin {
  apply(compiler) {
    const name = "OfficeJsCdnPlugin";
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).beforeEmit.tap(name, (data) => {
        data.html = data.html
          .split(OFFICE_JS_LOCAL_SRC)
          .join(`src="${OFFICE_JS_CDN}"`)
          .replace("office.js from the local @microsoft/office-js copy", "office.js from Microsoft's CDN");
        return data;
      });
    });
  }
}

/**
 * The deployment's addresses for the add-in (process.env.* in its code, replaced at build time;
 * empty when unset). README "Run in production" describes each; SANDBOX_URL and
 * SANDBOX_BROKER_URL are the sandbox and broker `npm start` runs (the Sandbox presets follow them),
 * SANDBOX_PROFILE its profile (a fresh pane preselects that profile's preset).
 */
const DEPLOYMENT_VARIABLES = [
  "SERVICE_API_URL",
  "SERVICE_SIGNIN_URL",
  "BROKER_URL",
  "SERVICE_RELAY_URL",
  "SERVICE_CLIENT_ID",
  "SANDBOX_URL",
  "SANDBOX_BROKER_URL",
  "SANDBOX_PROFILE",
];

/** Rewrites the add-in URLs in the generated functions.json (help links) for a deployment. */
class FunctionsMetadataUrlsPlugin {
  constructor(rewrite) {
    this.rewrite = rewrite;
  }

  apply(compiler) {
    const name = "FunctionsMetadataUrlsPlugin";
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.hooks.processAssets.tap({ name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const asset = compilation.getAsset("functions.json");
        if (!asset) return;
        const json = asset.source.source().toString();
        compilation.updateAsset("functions.json", new webpack.sources.RawSource(this.rewrite(json)));
      });
    });
  }
}

/** After a production build, prints the gzip size of the JavaScript each page loads at start. */
class InitialJsSizePlugin {
  apply(compiler) {
    const name = "InitialJsSizePlugin";
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.hooks.processAssets.tap({ name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => report(compilation));
    });
    const report = (compilation) => {
      const lines = [];
      for (const [page, entries] of Object.entries(PAGES)) {
        const files = new Set();
        for (const entry of entries) {
          for (const file of compilation.entrypoints.get(entry)?.getFiles() ?? []) if (file.endsWith(".js")) files.add(file);
        }
        let gzipBytes = 0;
        for (const file of files) gzipBytes += gzipSync(compilation.getAsset(file).source.buffer()).length;
        const kib = gzipBytes / 1024;
        const goal =
          page === "taskpane.html"
            ? ` (goal ${TASKPANE_INITIAL_JS_GOAL_KIB} KiB${kib > TASKPANE_INITIAL_JS_GOAL_KIB ? ": over, load secondary panels with import()" : ""})`
            : "";
        lines.push(`  ${page}: ${kib.toFixed(1)} KiB gzip in ${files.size} files${goal}`);
      }
      console.log(["Initial JavaScript per page (office.js not included):", ...lines].join("\n"));
    };
  }
}

export default async function config(env = {}, argv = {}) {
  const production = argv.mode === "production";
  const serving = Boolean(env.WEBPACK_SERVE);
  const helpers = await buildHelpers();
  const officeJsLocal = !production || /^(1|true|yes)$/i.test(process.env.OFFICE_JS_LOCAL ?? "") || Boolean(env.officeJsLocal);

  const manifestTarget = production ? helpers.manifestTargetFromEnv(process.env) : {};
  if (production && !manifestTarget.addinUrl) {
    console.warn("ADDIN_PUBLIC_URL is not set: the built manifest.xml keeps the https://localhost:3000 URLs.");
  }

  let devServer;
  if (serving) {
    const certificates = await helpers.loadDevCertificates();
    if (!certificates.trusted) console.warn(helpers.untrustedCertificateHint());
    devServer = {
      host: "localhost",
      port: DEV_SERVER_PORT,
      server: { type: "https", options: { key: certificates.key, cert: certificates.cert, ca: certificates.ca } },
      // Excel loads functions.json and the pages from other origins (Excel on the web).
      headers: { "Access-Control-Allow-Origin": "*" },
      // Hot replacement would re-register custom functions in the shared runtime; reload instead.
      hot: false,
      liveReload: true,
      static: false,
      client: { overlay: { errors: true, warnings: false } },
    };
  }

  return {
    context: root,
    mode: production ? "production" : "development",
    devtool: production ? false : "eval-cheap-module-source-map",
    entry: {
      functions: "./src/functions/functions.ts",
      taskpane: "./src/taskpane/index.tsx",
      dialog: "./src/auth/dialog.ts",
      redirect: "./src/auth/redirect.ts",
    },
    output: {
      path: path.join(root, "dist"),
      filename: production ? "[name].[contenthash:8].js" : "[name].js",
      chunkFilename: production ? "[name].[contenthash:8].js" : "[name].js",
      // Relative URLs, so the add-in also works under a path (https://host/excel/).
      publicPath: "auto",
      clean: true,
    },
    resolve: {
      extensions: [".ts", ".tsx", ".js"],
      // Sources import "./x.js" (moduleResolution Bundler); the files are .ts/.tsx.
      extensionAlias: { ".js": [".ts", ".tsx", ".js"] },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          // esbuild only transpiles (type checking is `npm run typecheck`), with tsconfig.json's
          // settings (JSX runtime, target): a cold build of the pages takes a third less
          // processor time than with TypeScript's own transpiler.
          use: { loader: "esbuild-loader", options: { tsconfig: path.join(root, "tsconfig.json"), target: "es2022" } },
        },
      ],
    },
    optimization: {
      // One webpack runtime for the page, so the functions and the task pane share module
      // instances (one composition root per shared runtime).
      runtimeChunk: "single",
      splitChunks: { chunks: "all" },
    },
    performance: {
      hints: production ? "warning" : false,
      assetFilter: (asset) => asset.endsWith(".js") && !asset.startsWith("assets/"),
      maxEntrypointSize: 450 * 1024,
      maxAssetSize: 450 * 1024,
    },
    plugins: [
      ...(production ? [new InitialJsSizePlugin()] : []),
      ...(officeJsLocal ? [] : [new OfficeJsCdnPlugin()]),
      new webpack.DefinePlugin(
        Object.fromEntries(DEPLOYMENT_VARIABLES.map((name) => [`process.env.${name}`, JSON.stringify(process.env[name]?.trim() ?? "")])),
      ),
      new CustomFunctionsMetadataPlugin({ output: "functions.json", input: "./src/functions/functions.ts" }),
      new FunctionsMetadataUrlsPlugin((json) => helpers.rewriteFunctionsMetadata(json, manifestTarget)),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        chunks: PAGES["taskpane.html"],
        chunksSortMode: "manual",
      }),
      new HtmlWebpackPlugin({ filename: "dialog.html", template: "./src/auth/dialog.html", chunks: PAGES["dialog.html"] }),
      new HtmlWebpackPlugin({ filename: "redirect.html", template: "./src/auth/redirect.html", chunks: PAGES["redirect.html"] }),
      new CopyWebpackPlugin({
        patterns: [
          // One exact file name: a glob would make the project root a watch dependency.
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) => helpers.rewriteManifest(content.toString("utf8"), manifestTarget),
          },
          { from: "assets", to: "assets", globOptions: { ignore: ["**/*.mjs"] } },
          ...(officeJsLocal ? [officeJsCopy()] : []),
        ],
      }),
    ],
    watchOptions: { ignored: ["**/node_modules/**", "**/.sandbox/**", "**/.certs/**", "**/dist/**", "**/.git/**"] },
    devServer,
    stats: production ? "normal" : "minimal",
  };
}
