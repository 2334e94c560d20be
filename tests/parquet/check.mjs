// Reads dlgen's Parquet files with hyparquet (a Parquet reader written apart from dlgen, with
// hyparquet-compressors for zstd and snappy) and checks each against what dlgen says it wrote
// (parquet_expect's expected.json and value files): magic and footer, schema, row counts, row
// groups, codec, and every value of every column. Usage: node check.mjs EXPECTED_DIR
import { readFileSync } from 'fs'
import { join } from 'path'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

const dir = process.argv[2]
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))
let failures = 0
const fail = (file, what) => {
  console.error(`FAIL ${file}: ${what}`)
  failures++
}

for (const f of expected.files) {
  const file = await asyncBufferFromFile(f.path)
  if (file.byteLength !== f.bytes) fail(f.path, `${file.byteLength} bytes, expected ${f.bytes}`)
  const md = await parquetMetadataAsync(file)
  if (Number(md.num_rows) !== f.rows) fail(f.path, `num_rows ${md.num_rows}, expected ${f.rows}`)
  const groups = md.row_groups.map(rg => Number(rg.num_rows))
  if (JSON.stringify(groups) !== JSON.stringify(f.row_groups))
    fail(f.path, `row groups ${groups}, expected ${f.row_groups}`)
  const leaves = md.schema.slice(1)
  if (leaves.length !== f.columns.length) fail(f.path, `${leaves.length} columns`)
  for (const [i, c] of f.columns.entries()) {
    const s = leaves[i] ?? {}
    if (s.name !== c.name || s.type !== 'FIXED_LEN_BYTE_ARRAY' || s.type_length !== c.type_length)
      fail(f.path, `column ${i}: ${s.name} ${s.type}(${s.type_length}), expected ${c.name} ` +
                   `FIXED_LEN_BYTE_ARRAY(${c.type_length})`)
  }
  for (const rg of md.row_groups)
    for (const ch of rg.columns)
      if (ch.meta_data.codec !== f.codec) fail(f.path, `codec ${ch.meta_data.codec}, expected ${f.codec}`)
  for (const c of f.columns) {
    const rows = await parquetReadObjects({ file, compressors, columns: [c.name] })
    const want = readFileSync(join(dir, c.values))
    if (rows.length !== f.rows) fail(f.path, `${c.name}: ${rows.length} rows read`)
    const got = Buffer.concat(rows.map(r => Buffer.from(r[c.name])))
    if (!got.equals(want)) {
      let at = 0
      while (at < got.length && got[at] === want[at]) at++
      fail(f.path, `${c.name}: values differ from dlgen's at byte ${at} of ${want.length}`)
    }
  }
  console.log(`ok ${f.path}: ${f.rows} rows, ${groups.length} row group(s), ` +
              `${f.columns.length} column(s), ${f.codec}`)
}
if (failures > 0) process.exit(1)
