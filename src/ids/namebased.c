/*
 * namebased.c
 *		Name-based ids: uuid_v8_sha256(), uuidv5(), uuidv3(), and the
 *		standard namespaces.
 *
 * Owns the name-based generators and the hash contexts they keep across
 * calls; may call PostgreSQL's cryptohash API and bits.h.
 *
 * All hashing goes through PostgreSQL's cryptohash API.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "common/cryptohash.h"
#include "common/sha2.h"
#include "compat.h"
#include "fmgr.h"
#include "ids/bits.h"
#include "mb/pg_wchar.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

/*
 * The backend's hash contexts, one per algorithm, made on first use and kept
 * for the life of the backend, so that a call allocates nothing but its
 * result; each call re-initialises the context it uses.  Two things decide
 * how long a cryptohash context lives, and both are chosen here rather than
 * left to whatever is current at the first call: its memory (core allocates
 * it in CurrentMemoryContext when PostgreSQL is built without OpenSSL, which
 * is a per-row context when the first call comes from a query) and, with
 * OpenSSL, the resource owner that frees it when released.  So a context is
 * made in TopMemoryContext, under a resource owner of its own that is never
 * released.
 */
static ResourceOwner hash_owner = NULL;
static pg_cryptohash_ctx *hash_contexts[PG_SHA256 + 1];

/*
 * The backend's context for "type".
 */
static pg_cryptohash_ctx *
HashContext(pg_cryptohash_type type)
{
	ResourceOwner saved_owner;
	MemoryContext saved_context;

	if (hash_contexts[type] != NULL)
		return hash_contexts[type];

	if (hash_owner == NULL)
		hash_owner = ResourceOwnerCreate(NULL, "pg_uuidx hash contexts");

	saved_owner = CurrentResourceOwner;
	saved_context = MemoryContextSwitchTo(TopMemoryContext);
	CurrentResourceOwner = hash_owner;
	PG_TRY();
	{
		/* in a backend this reports its own errors and never returns NULL */
		hash_contexts[type] = pg_cryptohash_create(type);
	}
	PG_FINALLY();
	{
		CurrentResourceOwner = saved_owner;
		MemoryContextSwitchTo(saved_context);
	}
	PG_END_TRY();

	return hash_contexts[type];
}

/*
 * The id of "name" in "namespace": the hash of the 16 namespace octets
 * followed by the name's octets, first 128 bits kept, version and variant
 * set.  RFC 9562 5.3 (v3, MD5), 5.5 (v5, SHA-1) and Appendix B.2 (v8,
 * SHA-256) all take this shape.
 */
static pg_uuid_t *
HashName(pg_cryptohash_type type, int version, const pg_uuid_t *namespace,
		 const char *name, Size len)
{
	pg_cryptohash_ctx *ctx = HashContext(type);

	/* SHA-256's digest is the longest of the three */
	uint8		digest[PG_SHA256_DIGEST_LENGTH];
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	if (pg_cryptohash_init(ctx) < 0 ||
		pg_cryptohash_update(ctx, namespace->data, UUID_LEN) < 0 ||
		pg_cryptohash_update(ctx, (const uint8 *) name, len) < 0 ||
		pg_cryptohash_final(ctx, digest, sizeof(digest)) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute the hash for a version %d UUID: %s",
						version, pg_cryptohash_error(ctx))));

	memcpy(uuid->data, digest, UUID_LEN);
	uuid->data[6] = (uuid->data[6] & 0x0F) | (version << 4);	/* RFC 9562 4.2 */
	uuid->data[8] = (uuid->data[8] & 0x3F) | 0x80;	/* RFC 9562 4.1 */
	return uuid;
}

/*
 * Hash a text name as UTF-8, whatever the server encoding, so that the same
 * name gives the same id in every database.  In a SQL_ASCII database the
 * bytes must be valid UTF-8 and are hashed as they are; an encoding with no
 * conversion to UTF-8 (MULE_INTERNAL) is refused with a pointer to the bytea
 * overloads.
 */
static Datum
HashText(FunctionCallInfo fcinfo, pg_cryptohash_type type, int version)
{
	text	   *name = PG_GETARG_TEXT_PP(1);
	int			encoding = GetDatabaseEncoding();
	char	   *utf8;
	Size		len;

	if (encoding != PG_UTF8 && encoding != PG_SQL_ASCII &&
		!OidIsValid(FindDefaultConversionProc(encoding, PG_UTF8)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("text names cannot be hashed in a database with encoding %s",
						GetDatabaseEncodingName()),
				 errdetail("Names are hashed as UTF-8, and PostgreSQL has no conversion from %s to UTF8.",
						   GetDatabaseEncodingName()),
				 errhint("Pass the name's UTF-8 bytes to the bytea form of the function.")));

	utf8 = pg_server_to_any(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), PG_UTF8);
	len = (utf8 == VARDATA_ANY(name)) ? VARSIZE_ANY_EXHDR(name) : strlen(utf8);

	PG_RETURN_UUID_P(HashName(type, version, PG_GETARG_UUID_P(0), utf8, len));
}

/*
 * Hash a bytea name as it is.
 */
static Datum
HashBytes(FunctionCallInfo fcinfo, pg_cryptohash_type type, int version)
{
	bytea	   *name = PG_GETARG_BYTEA_PP(1);

	PG_RETURN_UUID_P(HashName(type, version, PG_GETARG_UUID_P(0),
							  VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_v8_sha256_text);
PG_FUNCTION_INFO_V1(pg_uuidx_uuid_v8_sha256_bytea);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv5_text);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv5_bytea);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv3_text);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv3_bytea);

/* uuid_v8_sha256(namespace uuid, name text|bytea): RFC 9562 Appendix B.2 */
Datum
pg_uuidx_uuid_v8_sha256_text(PG_FUNCTION_ARGS)
{
	return HashText(fcinfo, PG_SHA256, 8);
}

Datum
pg_uuidx_uuid_v8_sha256_bytea(PG_FUNCTION_ARGS)
{
	return HashBytes(fcinfo, PG_SHA256, 8);
}

/* uuidv5(namespace uuid, name text|bytea): RFC 9562 5.5, SHA-1 */
Datum
pg_uuidx_uuidv5_text(PG_FUNCTION_ARGS)
{
	return HashText(fcinfo, PG_SHA1, 5);
}

Datum
pg_uuidx_uuidv5_bytea(PG_FUNCTION_ARGS)
{
	return HashBytes(fcinfo, PG_SHA1, 5);
}

/* uuidv3(namespace uuid, name text|bytea): RFC 9562 5.3, MD5 */
Datum
pg_uuidx_uuidv3_text(PG_FUNCTION_ARGS)
{
	return HashText(fcinfo, PG_MD5, 3);
}

Datum
pg_uuidx_uuidv3_bytea(PG_FUNCTION_ARGS)
{
	return HashBytes(fcinfo, PG_MD5, 3);
}

/*
 * RFC 9562 6.6 (Table 3): the four standard namespaces differ only in the
 * last octet of time_low.
 */
static Datum
Namespace(uint8 octet3)
{
	static const uint8 dns[UUID_LEN] = {
		0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
		0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8
	};
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	memcpy(uuid->data, dns, UUID_LEN);
	uuid->data[3] = octet3;
	PG_RETURN_UUID_P(uuid);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_namespace_dns);
PG_FUNCTION_INFO_V1(pg_uuidx_uuid_namespace_url);
PG_FUNCTION_INFO_V1(pg_uuidx_uuid_namespace_oid);
PG_FUNCTION_INFO_V1(pg_uuidx_uuid_namespace_x500);

/* uuid_namespace_dns() -> 6ba7b810-9dad-11d1-80b4-00c04fd430c8 */
Datum
pg_uuidx_uuid_namespace_dns(PG_FUNCTION_ARGS)
{
	return Namespace(0x10);
}

/* uuid_namespace_url() -> 6ba7b811-9dad-11d1-80b4-00c04fd430c8 */
Datum
pg_uuidx_uuid_namespace_url(PG_FUNCTION_ARGS)
{
	return Namespace(0x11);
}

/* uuid_namespace_oid() -> 6ba7b812-9dad-11d1-80b4-00c04fd430c8 */
Datum
pg_uuidx_uuid_namespace_oid(PG_FUNCTION_ARGS)
{
	return Namespace(0x12);
}

/* uuid_namespace_x500() -> 6ba7b814-9dad-11d1-80b4-00c04fd430c8 */
Datum
pg_uuidx_uuid_namespace_x500(PG_FUNCTION_ARGS)
{
	return Namespace(0x14);
}
