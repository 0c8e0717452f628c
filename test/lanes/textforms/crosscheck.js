// crosscheck.js IN OUT N (run by crosscheck.pl): check pg_uuidx's text forms against npm "ulid"
// and "typeid-js".  IN has lines "uuid<TAB>ulid<TAB>typeid user_<TAB>typeid
// without prefix" written by pg_uuidx; each is encoded and decoded here and
// compared.  OUT receives N ids made here ("uuid<TAB>ulid<TAB>typeid") for
// pg_uuidx to decode.  Prints "node: M mismatches of K" and exits 1 on any.
//
// Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
'use strict';
const fs = require('fs');
const { uuidToULID, ulidToUUID, ulid } = require('ulid');
const { TypeID, typeid } = require('typeid-js');

const [inFile, outFile, n] = process.argv.slice(2);
let checked = 0, bad = 0;
function expect(ok, what) {
    checked++;
    if (!ok) {
        bad++;
        if (bad <= 5) console.error('mismatch: ' + what);
    }
}
for (const line of fs.readFileSync(inFile, 'utf8').split('\n')) {
    if (line === '') continue;
    const [id, ul, tidUser, tidBare] = line.split('\t');
    expect(uuidToULID(id) === ul, `uuidToULID(${id}) = ${uuidToULID(id)}, pg_uuidx ${ul}`);
    expect(ulidToUUID(ul).toLowerCase() === id, `ulidToUUID(${ul}) = ${ulidToUUID(ul)}, pg_uuidx ${id}`);
    expect(TypeID.fromUUID('user', id).toString() === tidUser, `TypeID.fromUUID(user, ${id}), pg_uuidx ${tidUser}`);
    expect(TypeID.fromUUID('', id).toString() === tidBare, `TypeID.fromUUID('', ${id}), pg_uuidx ${tidBare}`);
    const parsed = TypeID.fromString(tidUser);
    expect(parsed.getType() === 'user' && parsed.toUUID() === id, `TypeID.fromString(${tidUser})`);
}
const out = [];
for (let i = 0; i < Number(n); i++) {
    const u = ulid();
    const t = typeid('order_line');
    out.push([ulidToUUID(u).toLowerCase(), u, t.toString(), t.toUUID()].join('\t'));
}
fs.writeFileSync(outFile, out.join('\n') + '\n');
console.log(`node: ${bad} mismatches of ${checked}`);
process.exit(bad === 0 ? 0 : 1);
