//go:build race

package rpc_test

// raceEnabled: the race detector changes allocation counts.
const raceEnabled = true
