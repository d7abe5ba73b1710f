import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
const contents = process.argv[2]
const r = await build({ stdin: { contents, resolveDir: '.', sourcefile: 'e.ts', loader: 'ts' }, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2020', write: false, logLevel: 'error', metafile: true, mainFields: ['module','main'] })
const code = r.outputFiles[0].contents
console.log(code.length, gzipSync(code, { level: 9 }).length)
for (const [f, i] of Object.entries(Object.values(r.metafile.outputs)[0].inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput)) if (i.bytesInOutput) console.log(f, i.bytesInOutput)
if (process.argv[3]) console.log(Buffer.from(code).toString())
