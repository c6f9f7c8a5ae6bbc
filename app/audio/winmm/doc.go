// Package winmm records the microphone on Windows through WinMM's waveIn
// API, by system calls (no cgo): an audio.Input for app/listen. waveIn is
// old but present on every Windows, reaches every capture device, and
// converts to the asked format (16 kHz mono s16) itself.
//
// Each capture opens the device with an event callback, queues four
// buffers of one chunk each (pinned Go memory, runtime.Pinner), and a
// goroutine waits on the event, hands each filled buffer to Read and
// queues it again. Close resets the device (it returns every buffer),
// unprepares the buffers and closes it. Sources lists the devices by the
// name the driver gives; "" is the wave mapper (the default device).
//
// Built for GOOS=windows only; this build cannot run it (no Windows
// here): it is compiled, not tested.
package winmm
