/*
 * bcryptprimitives.dll for Wine 8.0: the one export Go's Windows runtime
 * needs (ProcessPrng, Windows 10+), over advapi32's RtlGenRandom
 * (SystemFunction036), which Wine has. Debian's wine64 8.0 lacks the DLL,
 * and a Go 1.26 program dies at start ("bcryptprimitives.dll not found").
 * Used only by the Wine test stage (make wine-test, docs/windows.md); it is
 * never shipped.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll processprng.c -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom's real name; ntsecapi.h declares it only under a macro. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
	(void)instance;
	(void)reason;
	(void)reserved;
	return TRUE;
}
