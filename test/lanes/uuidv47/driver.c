/*
 * test/lanes/uuidv47/driver.c - reads "v7 key facade" lines (key as 32 hex
 * digits) written by pg_uuidx and checks each pair against the UUIDv47
 * reference (its uuidv47.h); prints how many rows it read and how many it
 * disagrees with.  Built and run by ref.pl.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include <stdio.h>
#include "uuidv47.h"

int
main(void)
{
	char		id_s[64],
				key_s[64],
				facade_s[64];
	long		rows = 0,
				bad = 0;

	while (scanf("%63s %63s %63s", id_s, key_s, facade_s) == 3)
	{
		uuid128_t	id,
					facade,
					enc,
					dec;
		uint8_t		k[16];
		uuidv47_key_t key;

		if (!uuid_parse(id_s, &id) || !uuid_parse(facade_s, &facade))
			return 2;
		for (int i = 0; i < 16; i++)
		{
			unsigned	v;

			if (sscanf(key_s + 2 * i, "%2x", &v) != 1)
				return 2;
			k[i] = (uint8_t) v;
		}
		/* pg_uuidx's key mapping: k0, k1 = bytes 0-7, 8-15, little-endian */
		key.k0 = rd64le(k);
		key.k1 = rd64le(k + 8);
		enc = uuidv47_encode_v4facade(id, key);
		dec = uuidv47_decode_v4facade(facade, key);
		rows++;
		if (memcmp(&enc, &facade, 16) != 0 || memcmp(&dec, &id, 16) != 0)
			bad++;
	}
	printf("%ld rows, %ld disagreements with the reference\n", rows, bad);
	return bad != 0 || rows == 0;
}
