package inspect

// The Locker mode's own loop. A world without a loop of its own is served
// by a goroutine of the inspector's: it drains the same job queue Tick,
// Serve and Run drain, taking the Locker around each batch of waiting
// jobs. Requests only queue a job and wait for it (do), so there is one
// way a job runs, whichever loop drains.
//
// Who drains: the inspector's loop until the program first calls Tick,
// Serve or Run (takeOver), the program's loop from then on. takeOver sets
// takenOver while holding batch, which the inspector's loop holds around
// each batch after taking the Locker and before looking at takenOver, so
// no batch of it runs once takeOver returns, and none is running then.
// takeOver never takes the Locker, so a program that calls Tick holding
// it, or whose step takes it, does not deadlock with the loop.
//
// Lifetime: the first request that needs the loop starts it
// (ensureDrainer); Close ends it for good, and the server Listen built
// ends it when it stops (a later request, from another server, starts
// another). Stopping
// never waits for the goroutine, which may be waiting for a lock the
// stopping caller holds: the goroutine ends as soon as the queue is empty
// and it runs no job.

// ensureDrainer makes sure a loop will drain the queue, starting the
// inspector's own in Locker mode when no loop of the program has taken
// over. It reports false once the inspector is closed.
func (in *Inspector) ensureDrainer() bool {
	if in.locker == nil || in.takenOver.Load() {
		return !in.closed.Load()
	}
	in.life.Lock()
	defer in.life.Unlock()
	if in.closed.Load() {
		return false
	}
	if in.stopLoop == nil && !in.takenOver.Load() {
		in.stopLoop = make(chan struct{})
		go in.lockerLoop(in.stopLoop)
	}
	return true
}

// lockerLoop is the inspector's own loop: it runs the queued jobs under
// the Locker, a batch at a time, until stop is closed and the queue is
// empty, or a loop of the program takes the queue over.
func (in *Inspector) lockerLoop(stop <-chan struct{}) {
	for !in.takenOver.Load() {
		if len(in.jobs) > 0 {
			if !in.lockedServe() {
				return
			}
			continue
		}
		select {
		case <-in.wake:
		case <-stop:
			if len(in.jobs) == 0 {
				return
			}
		}
	}
}

// lockedServe runs one batch of queued jobs (as Serve does: those queued
// when it begins, none past the first after serveBudget) holding the
// Locker, so the program waits for the lock at most about that long past
// one job. It reports false, running nothing, once a loop of the program
// has taken the queue over.
func (in *Inspector) lockedServe() bool {
	in.locker.Lock()
	defer in.locker.Unlock()
	in.batch.Lock()
	defer in.batch.Unlock()
	if in.takenOver.Load() {
		return false
	}
	in.serve()
	return true
}

// takeOver hands the queue from the inspector's own loop to the program's,
// at its first Tick, Serve or Run call in Locker mode. It waits for a
// batch of the inspector's loop to end, never for the Locker.
func (in *Inspector) takeOver() {
	if in.locker == nil || in.takenOver.Load() {
		return
	}
	in.batch.Lock()
	in.takenOver.Store(true)
	in.batch.Unlock()
	in.endLockerLoop()
}

// endLockerLoop tells the inspector's own loop, if one runs, to end once
// the queue is empty; it does not wait for it.
func (in *Inspector) endLockerLoop() {
	in.life.Lock()
	defer in.life.Unlock()
	if in.stopLoop != nil {
		close(in.stopLoop)
		in.stopLoop = nil
	}
}

// Close closes the inspector: from then on every request that reads or
// writes the world answers 503 at once, and so do those waiting in the
// queue, but for one a loop has already taken up, which finishes. The
// page, its files and the stream still answer. In [Locker] mode it ends
// the inspector's own loop: Close does not wait for it (it may wait for a
// lock the caller holds); its goroutine ends as soon as it runs no job,
// once it has the lock if it was waiting for it. Tick, Serve and Run still
// work, with no request to serve. Close a Locker-mode inspector that is
// served by a server of one's own (not [Inspector.Listen]'s) when done
// with it, so its goroutine ends. Close never waits for a request or a
// lock, and returns nil; a second call changes nothing. Complexity:
// O(queued requests).
func (in *Inspector) Close() error {
	in.life.Lock()
	in.closed.Store(true)
	in.life.Unlock()
	in.endLockerLoop()
	for {
		select {
		case j := <-in.jobs:
			if j.state.CompareAndSwap(jobQueued, jobRunning) {
				j.err = closedError()
				close(j.done)
			}
		default:
			return nil
		}
	}
}
