dlgen distil: note: batches reach the training loop through a thread of its own process (pin memory): a step starts when its batch has arrived there and the previous step has ended; compute per step is fitted per pass so that the last step ends when that thread exits
wrote job.toml (40 files, 4 workers, batch 2, 4 epochs); run it with: dlgen run job.toml
exit 0
