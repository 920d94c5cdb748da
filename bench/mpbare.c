/*
 * bench/mpbare.c: the baseline for msgpack pass-through: msgpack-c's own
 * streaming unpacker and packer, copying standard input to standard
 * output object by object, with no checks.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <msgpack.h>

int
main(void)
{
	msgpack_unpacker up;
	msgpack_unpacked obj;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	ssize_t n;
	unsigned long count = 0;

	msgpack_unpacker_init(&up, 1 << 20);
	msgpack_unpacked_init(&obj);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	for (;;) {
		msgpack_unpacker_reserve_buffer(&up, 1 << 20);
		n = read(0, msgpack_unpacker_buffer(&up),
		    msgpack_unpacker_buffer_capacity(&up));
		if (n <= 0)
			break;
		msgpack_unpacker_buffer_consumed(&up, (size_t)n);
		while (msgpack_unpacker_next(&up, &obj) ==
		    MSGPACK_UNPACK_SUCCESS) {
			msgpack_pack_object(&pk, obj.data);
			count++;
			if (sb.size > (1 << 16)) {
				if (write(1, sb.data, sb.size) < 0)
					return 1;
				msgpack_sbuffer_clear(&sb);
			}
		}
	}
	if (sb.size && write(1, sb.data, sb.size) < 0)
		return 1;
	fprintf(stderr, "%lu\n", count);
	return 0;
}
