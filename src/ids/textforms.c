/*
 * textforms.c
 *		Compact text forms of a native uuid: RFC 4648 base32hex (as
 *		PostgreSQL 19's encode(..., 'base32hex') writes it), ULID text and
 *		TypeID.
 *
 * Owns the base32 codec and its SQL functions; may call bits.h for the bits
 * and id_time.c for the ULID's time.
 *
 * All three write the 128 bits as 26 characters of 5 bits each (130 bits).
 * They differ in the alphabet and in where the 2 spare bits go:
 *	base32hex (RFC 4648 section 7): at the end, as zero pad bits
 *	ULID, TypeID (Crockford alphabet): at the front, so that the first
 *	character is 0-7
 * One codec, parameterised by a Base32Form, does all of them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "compat.h"
#include "fmgr.h"
#include "ids/bits.h"
#include "ids/id_time.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#define B32_CHARS		26		/* characters for 128 bits */
#define B32_PADDED		32		/* base32hex with RFC 4648 '=' padding */
#define TYPEID_PREFIX_MAX 63	/* TypeID spec 0.3.0, "Type Prefix" */

/*
 * What a text was read as, for messages: each kind has messages of its own,
 * written out whole.
 */
typedef enum TextKind
{
	TEXT_BASE32HEX,
	TEXT_ULID,
	TEXT_TYPEID,
	TEXT_TYPEID_PREFIX			/* typeid()'s prefix argument alone */
} TextKind;

typedef struct Base32Form
{
	TextKind	kind;			/* what its texts are called in messages */
	const char *digits;			/* the 32 output characters */
	bool		any_case;		/* decoding also takes the other case */
	bool		padding;		/* decoding also takes RFC 4648 "======" */
	int			first_shift;	/* bit of the uuid under the first char's
								 * lowest bit */
	int8		decode[256];	/* byte -> value, -1: not a digit; built on
								 * first use */
	bool		ready;
} Base32Form;

/*
 * RFC 4648 section 7: "0-9A-V", upper case on output.  The first character
 * holds uuid bits 127..123; the last holds bits 2..0 and two zero bits.
 */
static Base32Form base32hex_form = {
	.kind = TEXT_BASE32HEX,
	.digits = "0123456789ABCDEFGHIJKLMNOPQRSTUV",
	.any_case = true,
	.padding = true,
	.first_shift = 123
};

/*
 * ULID spec, "Encoding": Crockford's alphabet without I, L, O, U; "Case
 * insensitive".  The first character holds two zero bits and uuid bits
 * 127..125, hence 0-7 ("Overflow Errors when Parsing Base32 Strings").
 */
static Base32Form ulid_form = {
	.kind = TEXT_ULID,
	.digits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
	.any_case = true,
	.first_shift = 125
};

/*
 * TypeID spec 0.3.0, "Base32 Encoding": the same bits as ULID, but lower
 * case only, and no Crockford aliases.
 */
static Base32Form typeid_form = {
	.kind = TEXT_TYPEID,
	.digits = "0123456789abcdefghjkmnpqrstvwxyz",
	.first_shift = 125
};

/* Bytes of a bad input quoted in messages; longer inputs end in "..." */
#define QUOTE_MAX		80

/*
 * errmsg() for a text (len bytes at input) that is not a valid "kind",
 * quoting it: at most QUOTE_MAX bytes, whole characters, then "..." when
 * cut.  For use inside ereport().
 */
static int
ErrmsgInvalid(TextKind kind, const char *input, int len)
{
	int			shown_len = len <= QUOTE_MAX ? len : pg_mbcliplen(input, len, QUOTE_MAX);
	char	   *shown = psprintf("%.*s%s", shown_len, input,
								 shown_len < len ? "..." : "");

	switch (kind)
	{
		case TEXT_BASE32HEX:
			return errmsg("invalid base32hex: \"%s\"", shown);
		case TEXT_ULID:
			return errmsg("invalid ULID: \"%s\"", shown);
		case TEXT_TYPEID:
			return errmsg("invalid TypeID: \"%s\"", shown);
		case TEXT_TYPEID_PREFIX:
			return errmsg("invalid TypeID prefix: \"%s\"", shown);
	}
	pg_unreachable();
}

/* The 5 bits of the uuid (hi, lo) whose lowest bit is "shift" (-2..125) */
static inline uint32
TakeBits(uint64 hi, uint64 lo, int shift)
{
	if (shift >= 64)
		return (hi >> (shift - 64)) & 31;
	if (shift > 59)
		return ((lo >> shift) | (hi << (64 - shift))) & 31;
	if (shift >= 0)
		return (lo >> shift) & 31;
	return (lo << -shift) & 31;
}

/* Write id as 26 characters of form at out (no terminator) */
static void
Base32Encode(const Base32Form *form, const pg_uuid_t *id, char *out)
{
	uint64		hi;
	uint64		lo;
	int			i;

	uuid_unpack(id, &hi, &lo);
	for (i = 0; i < B32_CHARS; i++)
		out[i] = form->digits[TakeBits(hi, lo, form->first_shift - 5 * i)];
}

/* Fill form's decoding table from its digits (once per backend) */
static void
Base32Ready(Base32Form *form)
{
	int			i;

	memset(form->decode, -1, sizeof(form->decode));
	for (i = 0; i < 32; i++)
	{
		unsigned char c = (unsigned char) form->digits[i];

		form->decode[c] = i;
		if (form->any_case)
			form->decode[pg_ascii_tolower(c)] = form->decode[pg_ascii_toupper(c)] = i;
	}
	form->ready = true;
}

/*
 * Report a character of input that is not a digit of form, at a 1-based
 * position (the bytes before it are ASCII, so bytes and characters agree)
 */
static void
ReportBadDigit(const Base32Form *form, const char *input, int len, int pos)
{
	const char *c = input + pos - 1;
	int			clen = pg_mblen(c);
	bool		control = !IS_HIGHBIT_SET(*c) && *c < 0x20;

	switch (form->kind)
	{
		case TEXT_BASE32HEX:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 control ?
					 errdetail("Control character 0x%02x at position %d is not a base32hex digit.",
							   (unsigned char) *c, pos) :
					 errdetail("Character \"%.*s\" at position %d is not a base32hex digit.",
							   clen, c, pos),
					 errhint("base32hex uses 0-9 and A-V (either case).")));
			break;
		case TEXT_ULID:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 control ?
					 errdetail("Control character 0x%02x at position %d is not a ULID digit.",
							   (unsigned char) *c, pos) :
					 errdetail("Character \"%.*s\" at position %d is not a ULID digit.",
							   clen, c, pos),
					 errhint("ULID text uses 0-9 and A-Z without I, L, O and U (either case).")));
			break;
		case TEXT_TYPEID:
		case TEXT_TYPEID_PREFIX:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 control ?
					 errdetail("Control character 0x%02x at position %d is not a TypeID suffix digit.",
							   (unsigned char) *c, pos) :
					 errdetail("Character \"%.*s\" at position %d is not a TypeID suffix digit.",
							   clen, c, pos),
					 errhint("A TypeID suffix is lower case 0-9 and a-z without i, l, o and u.")));
			break;
	}
}

/*
 * Decode 26 characters of form at in into id, or raise 22P02 naming the
 * first bad character; "offset" is added to positions in messages, which
 * quote "input" (len bytes), the whole text given.  Nothing is returned
 * before the whole input is checked.
 */
static void
Base32Decode(Base32Form *form, const char *in, const char *input, int len,
			 int offset, pg_uuid_t *id)
{
	uint64		hi = 0;
	uint64		lo = 0;
	int			i;

	if (!form->ready)
		Base32Ready(form);
	for (i = 0; i < B32_CHARS; i++)
	{
		int			shift = form->first_shift - 5 * i;
		int			v = form->decode[(unsigned char) in[i]];

		if (v < 0)
			ReportBadDigit(form, input, len, offset + i + 1);
		if (shift > 123 && (v >> (128 - shift)) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 errdetail("Character \"%c\" at position %d is above 7: the value would need more than 128 bits.",
							   in[i], offset + i + 1)));
		if (shift < 0 && (v & ((1 << -shift) - 1)) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 errdetail("Character \"%c\" at position %d sets pad bits that must be zero (RFC 4648 section 3.5).",
							   in[i], offset + i + 1)));
		if (shift >= 64)
			hi |= (uint64) v << (shift - 64);
		else if (shift > 59)
		{
			lo |= (uint64) v << shift;
			hi |= (uint64) v >> (64 - shift);
		}
		else if (shift >= 0)
			lo |= (uint64) v << shift;
		else
			lo |= (uint64) v >> -shift;
	}
	uuid_pack(id, hi, lo);
}

/*
 * 22P02 for text of form that has the wrong length: len bytes in all, the
 * 26 characters expected from "offset" on (after a TypeID's prefix).  A
 * non-ASCII character is named first: it makes the byte length differ from
 * the character count.
 */
static void
ReportLength(const Base32Form *form, const char *input, int len, int offset)
{
	int			n = len - offset;
	int			i;

	for (i = offset; i < len; i++)
		if (IS_HIGHBIT_SET(input[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 errdetail("Character \"%.*s\" at position %d is not ASCII.",
							   pg_mblen(input + i), input + i, i + 1)));
	switch (form->kind)
	{
		case TEXT_BASE32HEX:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 errdetail_plural("It has %d character; it must have 26, or 32 with \"======\" padding.",
									  "It has %d characters; it must have 26, or 32 with \"======\" padding.",
									  n, n)));
			break;
		case TEXT_ULID:
		case TEXT_TYPEID:
		case TEXT_TYPEID_PREFIX:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(form->kind, input, len),
					 offset == 0 ?
					 errdetail_plural("It has %d character; it must have 26.",
									  "It has %d characters; it must have 26.",
									  n, n) :
					 errdetail_plural("The suffix has %d character; it must have 26.",
									  "The suffix has %d characters; it must have 26.",
									  n, n)));
			break;
	}
}

/*
 * The uuid of a text that is exactly 26 characters of form (base32hex: or
 * 32, the last 6 being RFC 4648 section 3.2's "=" padding).
 */
static pg_uuid_t *
Base32Uuid(Base32Form *form, text *t)
{
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	pg_uuid_t  *id = palloc(UUID_LEN);
	int			i;

	if (form->padding && len == B32_PADDED)
	{
		for (i = B32_CHARS; i < B32_PADDED; i++)
			if (s[i] != '=')
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 ErrmsgInvalid(form->kind, s, len),
						 errdetail("Position %d must be the padding character \"=\".", i + 1)));
	}
	else if (len != B32_CHARS)
		ReportLength(form, s, len, 0);
	Base32Decode(form, s, s, len, 0, id);
	return id;
}

/* A text datum holding the 26 characters of id in form, after a prefix */
static text *
Base32Text(const Base32Form *form, const char *prefix, int prefix_len,
		   const pg_uuid_t *id)
{
	text	   *result = palloc(VARHDRSZ + prefix_len + B32_CHARS);

	SET_VARSIZE(result, VARHDRSZ + prefix_len + B32_CHARS);
	memcpy(VARDATA(result), prefix, prefix_len);
	Base32Encode(form, id, VARDATA(result) + prefix_len);
	return result;
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_to_base32hex);

/*
 * uuid_to_base32hex(uuid) -> text: 26 characters, RFC 4648 section 7,
 * upper case, padding '=' left off; the same text as PostgreSQL 19's
 * rtrim(encode(id::bytea, 'base32hex'), '=').  Sorts as the uuid does
 * under COLLATE "C".
 */
Datum
pg_uuidx_uuid_to_base32hex(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(Base32Text(&base32hex_form, "", 0, PG_GETARG_UUID_P(0)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_base32hex_to_uuid);

/*
 * base32hex_to_uuid(text) -> uuid: 26 base32hex characters, either case,
 * optionally followed by the 6 '=' of RFC 4648 section 3.2's padding.
 */
Datum
pg_uuidx_base32hex_to_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(Base32Uuid(&base32hex_form, PG_GETARG_TEXT_PP(0)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_to_ulid);

/*
 * uuid_to_ulid(uuid) -> text: the ULID canonical string, 26 upper-case
 * Crockford characters (ULID spec, "Canonical String Representation").
 */
Datum
pg_uuidx_uuid_to_ulid(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(Base32Text(&ulid_form, "", 0, PG_GETARG_UUID_P(0)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_ulid_to_uuid);

/*
 * ulid_to_uuid(text) -> uuid: 26 Crockford characters, either case, first
 * 0-7.  I, L, O and U are refused, not read as Crockford's aliases: the ULID
 * spec's alphabet excludes them and names no alias.
 */
Datum
pg_uuidx_ulid_to_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(Base32Uuid(&ulid_form, PG_GETARG_TEXT_PP(0)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_ulid_extract_timestamp);

/*
 * ulid_extract_timestamp(uuid) -> timestamptz: the ULID timestamp, the top
 * 48 bits as milliseconds since the Unix epoch (ULID spec, "Components"),
 * whatever the version and variant bits say.
 */
Datum
pg_uuidx_ulid_extract_timestamp(PG_FUNCTION_ARGS)
{
	uint64		hi;
	uint64		lo;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	/* the v7 unix_ts_ms field (RFC 9562 5.7) is the ULID's 48 bits */
	PG_RETURN_TIMESTAMPTZ(timestamptz_ms_from_v7_unit(uuid_time_hi_unit(hi)));
}

/*
 * TypeID spec 0.3.0, "Type Prefix": empty, or at most 63 of [a-z_] that
 * start and end with [a-z].  Raises 22P02 naming the rule broken and the
 * 1-based position; messages quote "input" (len bytes), the whole text,
 * as a "kind" (a whole TypeID, or typeid()'s prefix argument).
 */
static void
CheckTypeidPrefix(TextKind kind, const char *prefix, int plen,
				  const char *input, int len)
{
	int			i;

	for (i = 0; i < plen; i++)
	{
		unsigned char c = (unsigned char) prefix[i];

		if (c == '_' && (i == 0 || i == plen - 1))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(kind, input, len),
					 errdetail("The TypeID prefix has a bad character at position %d: it must start and end with a letter a-z.",
							   i + 1)));
		if (c != '_' && (c < 'a' || c > 'z'))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(kind, input, len),
					 errdetail("The TypeID prefix has a bad character at position %d: it may only hold lower-case letters a-z and \"_\".",
							   i + 1)));
	}
	if (plen > TYPEID_PREFIX_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 ErrmsgInvalid(kind, input, len),
				 errdetail_plural("The TypeID prefix has %d character; at most %d are allowed.",
								  "The TypeID prefix has %d characters; at most %d are allowed.",
								  plen, plen, TYPEID_PREFIX_MAX)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_typeid);

/*
 * typeid(prefix text, id uuid) -> text: "prefix_" and the 26-character
 * suffix; the suffix alone when the prefix is empty (TypeID spec 0.3.0,
 * "Separator").
 */
Datum
pg_uuidx_typeid(PG_FUNCTION_ARGS)
{
	text	   *p = PG_GETARG_TEXT_PP(0);
	const char *prefix = VARDATA_ANY(p);
	int			plen = VARSIZE_ANY_EXHDR(p);
	char		buf[TYPEID_PREFIX_MAX + 1];

	CheckTypeidPrefix(TEXT_TYPEID_PREFIX, prefix, plen, prefix, plen);
	memcpy(buf, prefix, plen);
	if (plen > 0)
		buf[plen++] = '_';
	PG_RETURN_TEXT_P(Base32Text(&typeid_form, buf, plen, PG_GETARG_UUID_P(1)));
}

/*
 * Take a TypeID apart: the prefix is everything before the last "_" (the
 * prefix may hold "_" itself), the suffix the 26 characters after it.
 * Checks both; stores the prefix's length and the uuid.
 */
static void
ParseTypeid(text *t, int *prefix_len, pg_uuid_t *id)
{
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	const char *sep = NULL;
	int			plen = 0;
	int			i;

	for (i = len - 1; i >= 0 && sep == NULL; i--)
		if (s[i] == '_')
			sep = s + i;
	if (sep != NULL)
	{
		plen = sep - s;
		if (plen == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 ErrmsgInvalid(TEXT_TYPEID, s, len),
					 errdetail("It starts with the separator \"_\": a TypeID with an empty prefix has no separator.")));
		CheckTypeidPrefix(TEXT_TYPEID, s, plen, s, len);
		plen++;
	}
	if (len - plen != B32_CHARS)
		ReportLength(&typeid_form, s, len, plen);
	Base32Decode(&typeid_form, s + plen, s, len, plen, id);
	*prefix_len = sep != NULL ? plen - 1 : 0;
}

PG_FUNCTION_INFO_V1(pg_uuidx_typeid_to_uuid);

/* typeid_to_uuid(text) -> uuid: the uuid of a valid TypeID */
Datum
pg_uuidx_typeid_to_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = palloc(UUID_LEN);
	int			plen;

	ParseTypeid(PG_GETARG_TEXT_PP(0), &plen, id);
	PG_RETURN_UUID_P(id);
}

PG_FUNCTION_INFO_V1(pg_uuidx_typeid_prefix);

/* typeid_prefix(text) -> text: the prefix of a valid TypeID, maybe empty */
Datum
pg_uuidx_typeid_prefix(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	pg_uuid_t	id;
	int			plen;

	ParseTypeid(t, &plen, &id);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(VARDATA_ANY(t), plen));
}
