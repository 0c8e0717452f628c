/*
 * facade.c
 *		The UUIDv47 facade: a v7 id shown as a v4-looking id, keyed by a
 *		128-bit secret, exactly invertible (spec: github.com/stateless-me/uuidv47).
 *
 * Owns uuidv47_encode(), uuidv47_decode() and siphash24(); may call siphash.c
 * for the hash and bits.h to take the bits apart.
 *
 * The 48-bit millisecond field (RFC 9562 5.7 unix_ts_ms) is XORed with the
 * low 48 bits of SipHash-2-4 over the id's 74 random bits, taken as 10 bytes:
 * octet 6's low nibble, octet 7, octet 8 without the variant bits, octets
 * 9-15.  Those bits are the same in the id and in its facade, so decoding
 * computes the same mask.  The version nibble turns 7 -> 4 and back; the
 * rand_a fraction, the variant and rand_b are kept.
 *
 * The key is a 16-byte bytea: k0 is bytes 0-7 and k1 bytes 8-15, each read
 * little-endian, as the SipHash paper reads its key (and as the reference's
 * uuidv47_key_t is filled from 16 bytes).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "compat.h"
#include "ids/bits.h"
#include "ids/siphash.h"

#define TS48_MASK	UINT64CONST(0xFFFFFFFFFFFF)

/*
 * (k0, k1) of a key given as bytea, or an error if it is not 16 bytes.
 */
static void
FacadeKey(bytea *key, uint64 *k0, uint64 *k1)
{
	const uint8 *bytes = (const uint8 *) VARDATA_ANY(key);

	if (VARSIZE_ANY_EXHDR(key) != SIPHASH_KEY_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key must be 16 bytes"),
				 errdetail_plural("The key given has %d byte.",
								  "The key given has %d bytes.",
								  (int) VARSIZE_ANY_EXHDR(key),
								  (int) VARSIZE_ANY_EXHDR(key))));
	*k0 = siphash_key_half(bytes);
	*k1 = siphash_key_half(bytes + 8);
}

/*
 * Raise the error for an input of the wrong version or variant.
 */
static void
ReportFacadeInput(int expected, uint64 hi, uint64 lo)
{
	if (!uuid_is_rfc_variant(lo))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("UUID must be of version %d", expected),
				 errdetail("The UUID is not of the RFC 9562 variant (0b10), the only variant that has versions.")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("UUID must be of version %d", expected),
			 errdetail("The UUID is of version %d.", uuid_version(hi))));
}

/*
 * Swap a v7 id and its facade: check that "id" is an RFC-variant UUID of
 * version "from", XOR its millisecond field with the keyed mask, and give it
 * version "to".
 */
static Datum
FacadeSwap(FunctionCallInfo fcinfo, int from, int to)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	pg_uuid_t  *result;
	uint64		k0;
	uint64		k1;
	uint64		hi;
	uint64		lo;
	uint8		msg[10];
	uint64		mask;

	uuid_unpack(id, &hi, &lo);
	if (!uuid_is_rfc_variant(lo) || uuid_version(hi) != from)
		ReportFacadeInput(from, hi, lo);
	FacadeKey(PG_GETARG_BYTEA_PP(1), &k0, &k1);

	/* the 74 random bits as the spec's 10-byte SipHash message */
	msg[0] = id->data[6] & 0x0F;
	msg[1] = id->data[7];
	msg[2] = id->data[8] & 0x3F;
	memcpy(msg + 3, id->data + 9, 7);
	mask = siphash24(msg, sizeof(msg), k0, k1) & TS48_MASK;

	hi = ((((hi >> 16) ^ mask) & TS48_MASK) << 16) | ((uint64) to << 12) |
		(hi & 0xFFF);
	result = palloc(UUID_LEN);
	uuid_pack(result, hi, lo);
	PG_RETURN_UUID_P(result);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv47_encode);

/*
 * uuidv47_encode(id uuid, key bytea) -> uuid: the v4-looking facade of a v7
 * id.
 */
Datum
pg_uuidx_uuidv47_encode(PG_FUNCTION_ARGS)
{
	return FacadeSwap(fcinfo, 7, 4);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv47_decode);

/*
 * uuidv47_decode(facade uuid, key bytea) -> uuid: the v7 id behind a facade
 * made with the same key.  Any v4 id decodes to some v7 id; only the key
 * that encoded it gives back the original.
 */
Datum
pg_uuidx_uuidv47_decode(PG_FUNCTION_ARGS)
{
	return FacadeSwap(fcinfo, 4, 7);
}

PG_FUNCTION_INFO_V1(pg_uuidx_siphash24);

/*
 * siphash24(data bytea, key bytea) -> bytea: the 8 bytes of SipHash-2-4,
 * least significant first as in the paper's test vectors.
 */
Datum
pg_uuidx_siphash24(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	bytea	   *result = palloc(VARHDRSZ + 8);
	uint64		k0;
	uint64		k1;
	uint64		h;

	FacadeKey(PG_GETARG_BYTEA_PP(1), &k0, &k1);
	h = siphash24((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data),
				  k0, k1);
	SET_VARSIZE(result, VARHDRSZ + 8);
	for (int i = 0; i < 8; i++)
		((uint8 *) VARDATA(result))[i] = (uint8) (h >> (8 * i));
	PG_RETURN_BYTEA_P(result);
}
