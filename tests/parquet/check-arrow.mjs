// The second independent reader: Apache Arrow's Rust Parquet reader (arrow-rs, compiled to
// WebAssembly as parquet-wasm; zstd and snappy through its zstd and snap crates) reads each of
// dlgen's files whole into an Arrow table, which apache-arrow (JS) decodes: schema, row count and
// every value are checked against what dlgen says it wrote (parquet_expect).
// Usage: node check-arrow.mjs EXPECTED_DIR
import { readFileSync } from 'fs'
import { join } from 'path'
import { createRequire } from 'module'
import { initSync, readParquet } from 'parquet-wasm/esm'
import { tableFromIPC } from 'apache-arrow'

// The ES module build, given its WebAssembly directly (the package's node build is CommonJS in
// a "type": "module" package, which Node refuses to load).
const wasm = createRequire(import.meta.url).resolve('parquet-wasm/esm/parquet_wasm_bg.wasm')
initSync({ module: readFileSync(wasm) })

const dir = process.argv[2]
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))
let failures = 0
const fail = (file, what) => {
  console.error(`FAIL ${file}: ${what}`)
  failures++
}

for (const f of expected.files) {
  const table = tableFromIPC(readParquet(new Uint8Array(readFileSync(f.path))).intoIPCStream())
  if (table.numRows !== f.rows) fail(f.path, `${table.numRows} rows, expected ${f.rows}`)
  const fields = table.schema.fields
  if (fields.length !== f.columns.length) fail(f.path, `${fields.length} columns`)
  for (const [i, c] of f.columns.entries()) {
    const field = fields[i]
    if (!field || field.name !== c.name || field.type.byteWidth !== c.type_length) {
      fail(f.path, `column ${i}: ${field?.name} ${field?.type}, expected ${c.name} ` +
                   `FixedSizeBinary[${c.type_length}]`)
      continue
    }
    const column = table.getChild(c.name)
    const parts = []
    for (let r = 0; r < column.length; r++) parts.push(column.get(r))
    const got = Buffer.concat(parts.map(p => Buffer.from(p)))
    const want = readFileSync(join(dir, c.values))
    if (!got.equals(want)) {
      let at = 0
      while (at < got.length && got[at] === want[at]) at++
      fail(f.path, `${c.name}: values differ from dlgen's at byte ${at} of ${want.length}`)
    }
  }
  console.log(`ok (arrow-rs) ${f.path}: ${table.numRows} rows, ${fields.length} column(s)`)
}
if (failures > 0) process.exit(1)
